//go:build !unix

package gitlog

const nonBlock = 0
