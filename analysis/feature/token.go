package feature

// TokenBounds are the byte columns of the run of bytes accepted by in
// around column col of line.
func TokenBounds(line string, col int, in func(byte) bool) (int, int) {
	col = min(max(col, 0), len(line))
	i, j := col, col
	for i > 0 && in(line[i-1]) {
		i--
	}
	for j < len(line) && in(line[j]) {
		j++
	}
	return i, j
}

// TokenAt is the run of bytes accepted by in around column col of line.
func TokenAt(line string, col int, in func(byte) bool) string {
	i, j := TokenBounds(line, col, in)
	return line[i:j]
}

// IsWordByte accepts the bytes of an id: letters, digits and '-'.
func IsWordByte(b byte) bool {
	return b == '-' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
}

// IsPathByte accepts the bytes of a relative path as charters write them.
func IsPathByte(b byte) bool {
	return IsWordByte(b) || b == '/' || b == '.' || b == '_'
}
