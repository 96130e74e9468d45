package main

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/internal/termtext"
)

// SARIF 2.1.0 output, the format code-scanning tools ingest. Only the
// properties we fill are modelled.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region sarifRegion `json:"region"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.SeverityError:
		return "error"
	case diag.SeverityWarning:
		return "warning"
	}
	return "note"
}

func writeSARIF(w io.Writer, ds []diag.Diagnostic, toolVersion string) error {
	run := sarifRun{ColumnKind: "utf16CodeUnits", Results: []sarifResult{}}
	run.Tool.Driver = sarifDriver{Name: "charter-lsp", Version: toolVersion, InformationURI: diag.DocsURL}
	index := map[diag.Code]int{}
	for _, r := range diag.Rules {
		rule := sarifRule{ID: r.Name, ShortDescription: sarifMessage{r.Summary}, HelpURI: r.Code.DocURL()}
		rule.DefaultConfiguration.Level = sarifLevel(r.Severity)
		index[r.Code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
	}
	for _, d := range ds {
		res := sarifResult{RuleID: d.Code.String(), RuleIndex: index[d.Code], Level: sarifLevel(d.Severity), Message: sarifMessage{termtext.Inline(d.Message)}}
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation.URI = sarifURI(d.File)
		loc.PhysicalLocation.Region = sarifRegion{
			StartLine: d.Range.Start.Line + 1, StartColumn: d.Range.Start.Character + 1,
			EndLine: d.Range.End.Line + 1, EndColumn: d.Range.End.Character + 1,
		}
		res.Locations = []sarifLocation{loc}
		run.Results = append(run.Results, res)
	}
	return encodeJSON(w, sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// sarifURI is a file's artifactLocation.uri: a URI reference (RFC 3986),
// so every byte of the path outside the unreserved and sub-delimiter
// characters is percent-encoded. A relative path stays a relative reference
// (resolved against the repository, as code scanning does; "./" first
// when its first segment has a ":" that would read as a scheme); an
// absolute one becomes a file: URI.
func sarifURI(file string) string {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/…
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
