// Package export writes invoice lists as CSV.
package export

// BOM is written first so spreadsheet tools detect UTF-8.
const BOM = "\ufeff"
