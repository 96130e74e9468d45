package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
)

// Options tune Plan.
type Options struct {
	// Now stamps the records; zero means the current time.
	Now time.Time
}

// FileOp is one file write, as plain data so the language server can turn it
// into a WorkspaceEdit (CreateFile plus a full-text edit).
type FileOp struct {
	Path       string // absolute OS path, inside the charter directory
	Create     bool   // a new file that must not exist yet
	Content    []byte // the full new content
	OldContent []byte // the content Plan read when replacing; nil when Create
	// ModTime, when set, is the written file's modification time.
	// criterion-state.json gets its own lastToolWriteAt: charter_status
	// reports a sidecar whose mtime is later than lastToolWriteAt as edited
	// by hand (sidecarDrift), and the tool's own write must not read so.
	ModTime time.Time
}

// Written describes one recorded entry, as charter_record reports it.
type Written struct {
	CriterionID string `json:"criterionId"`
	FeatureID   string `json:"featureId,omitempty"`
	Outcome     string `json:"outcome"`
	Path        string `json:"path"` // relative to the charter directory, with '/'
	Ts          string `json:"ts"`
	// Artifacts are the entry's attachments, relative to the charter
	// directory, with '/'.
	Artifacts []string `json:"artifacts,omitempty"`
}

// Result is what recording will write: one evidence.json per entry, each in
// its own new run directory, then criterion-state.json.
type Result struct {
	Dir       string // the charter directory, absolute
	CharterID string
	Entries   []Written
	Ops       []FileOp

	// What Plan was called with, so Apply can plan again under the lock.
	entries []Entry
	opts    Options
}

// evidenceRow is one evidence.json row in upstream's field order.
type evidenceRow struct {
	CharterID   string         `json:"charterId,omitempty"`
	CriterionID string         `json:"criterionId"`
	FeatureID   string         `json:"featureId,omitempty"`
	Outcome     string         `json:"outcome"`
	Summary     string         `json:"summary"`
	Artifacts   []string       `json:"artifacts"`
	Details     map[string]any `json:"details"`
	Source      string         `json:"source"`
	RecordedBy  string         `json:"recordedBy"`
	Because     string         `json:"because,omitempty"`
	Verifier    string         `json:"verifier,omitempty"`
	Ts          string         `json:"ts"`
}

// stateRecord is one VAL's entry in criterion-state.json.
type stateRecord struct {
	Outcome          string `json:"outcome"`
	LastEvidencePath string `json:"lastEvidencePath"`
	LastTs           string `json:"lastTs"`
	LastSummary      string `json:"lastSummary"`
	LastFeatureID    string `json:"lastFeatureId,omitempty"`
	Source           string `json:"source,omitempty"`
	RecordedBy       string `json:"recordedBy,omitempty"`
	Because          string `json:"because,omitempty"`
}

// Plan validates entries against the charter in dir and returns the writes
// that record them. It reads through fsys (so unsaved editor content counts)
// and writes nothing.
func Plan(fsys vfs.FS, dir string, entries []Entry, opts Options) (*Result, error) {
	if len(entries) == 0 {
		return nil, errors.New("no evidence entry to record")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	dir = abs
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	ch, err := loadCharter(fsys, dir)
	if err != nil {
		return nil, err
	}
	if ch.status != "" && pi.Lifecycle(ch.status) != pi.Active {
		return nil, fmt.Errorf("charter %s is %s: evidence can only be recorded for an active charter (resume it first)", ch.id, ch.status)
	}

	ts := ISOTime(opts.Now)
	stamp := Stamp(opts.Now)
	res := &Result{Dir: dir, CharterID: ch.id, entries: entries, opts: opts}
	reserved := map[string]bool{}
	records := make([]stateRecord, len(entries))
	for i, e := range entries {
		row, err := prepare(i, e, ch)
		if err != nil {
			return nil, err
		}
		row.Ts = ts
		segment := row.FeatureID
		if segment == "" {
			segment = charterSegment
		}
		rel, err := allocateRun(fsys, dir, segment, stamp, reserved)
		if err != nil {
			return nil, err
		}
		attached, err := attachments(dir, rel, i, e)
		if err != nil {
			return nil, err
		}
		var artifacts []string
		for _, op := range attached {
			r, _ := filepath.Rel(dir, op.Path)
			artifacts = append(artifacts, filepath.ToSlash(r))
		}
		row.Artifacts = append(slices.Clone(row.Artifacts), artifacts...)
		rel = path.Join(rel, "evidence.json")
		target := filepath.Join(dir, filepath.FromSlash(rel))
		if err := vfs.CheckWrite(dir, target); err != nil {
			return nil, fmt.Errorf("refusing to write: %w", err)
		}
		content, err := jsonenc.Indent(row)
		if err != nil {
			return nil, fmt.Errorf("entry %d (%s): %w", i, row.CriterionID, err)
		}
		if err := validateRow(content); err != nil {
			return nil, fmt.Errorf("entry %d (%s): the record would break the evidence schema: %w", i, row.CriterionID, err)
		}
		res.Ops = append(res.Ops, FileOp{Path: target, Create: true, Content: content})
		res.Ops = append(res.Ops, attached...)
		res.Entries = append(res.Entries, Written{CriterionID: row.CriterionID, FeatureID: row.FeatureID, Outcome: row.Outcome, Path: rel, Ts: ts, Artifacts: artifacts})
		records[i] = stateRecord{
			Outcome: row.Outcome, LastEvidencePath: rel, LastTs: ts, LastSummary: row.Summary,
			LastFeatureID: row.FeatureID, Source: row.Source, RecordedBy: row.RecordedBy, Because: row.Because,
		}
	}

	op, err := planCriterionState(fsys, dir, ch.id, res.Entries, records, ts)
	if err != nil {
		return nil, err
	}
	res.Ops = append(res.Ops, op)
	return res, nil
}

// prepare validates entry i and builds its row (without ts).
// MaxText bounds a summary and a because. Both are written into
// criterion-state.json and every evidence.json of the run; a few megabytes
// of text there would push those files past the analysis size limit
// (analysis.MaxFileSize), after which nothing reads them.
const MaxText = 64 << 10

func prepare(i int, e Entry, ch *charter) (*evidenceRow, error) {
	id := strings.TrimSpace(e.CriterionID)
	if id == "" {
		return nil, entryError(i, "", "criterionId", "criterionId is required")
	}
	cr, ok := ch.criteria[id]
	if !ok {
		return nil, unknownCriterionError(i, id, ch.ids)
	}
	if !oneOf(e.Outcome, outcomes) {
		return nil, entryError(i, id, "outcome", "outcome %s must be pass, fail or partial", quote(e.Outcome))
	}
	summary := strings.TrimSpace(e.Summary)
	if summary == "" {
		return nil, entryError(i, id, "summary", "summary is required")
	}
	if len(summary) > MaxText {
		return nil, entryError(i, id, "summary", "summary is %d KB, over the %d KB limit; put the long text in an artifact and summarise it", len(summary)>>10, MaxText>>10)
	}
	source := e.Source
	if source == "" {
		source = defaultSource
	}
	if !oneOf(source, sources) {
		return nil, entryError(i, id, "source", "source %s must be manual, verifier or subagent", quote(e.Source))
	}
	because := strings.TrimSpace(e.Because)
	if len(because) > MaxText {
		return nil, entryError(i, id, "because", "because is %d KB, over the %d KB limit; say why in a paragraph and put the rest in an artifact", len(because)>>10, MaxText>>10)
	}
	if pi.Source(source) == pi.SourceManual && because == "" {
		return nil, entryError(i, id, "because", "manual evidence needs a non-empty because (why this outcome is right), or a verifier/subagent source")
	}
	recordedBy := strings.TrimSpace(e.RecordedBy)
	if recordedBy == "" {
		recordedBy = defaultRecordedBy
	}
	feature := strings.TrimSpace(e.FeatureID)
	if feature != "" {
		if err := checkSegment(feature); err != nil {
			return nil, entryError(i, id, "featureId", "%v", err)
		}
		if !slices.Contains(ch.milestones, feature) {
			return nil, unknownMilestoneError(i, id, feature, ch.milestones)
		}
	}
	artifacts := e.Artifacts
	if artifacts == nil {
		artifacts = []string{}
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	return &evidenceRow{
		CharterID: ch.id, CriterionID: id, FeatureID: feature, Outcome: e.Outcome, Summary: summary,
		Artifacts: artifacts, Details: details, Source: source, RecordedBy: recordedBy, Because: because,
		Verifier: cr.verifier,
	}, nil
}

// attachments are the writes of entry i's attachments into its run folder
// run (relative to dir).
func attachments(dir, run string, i int, e Entry) ([]FileOp, error) {
	var out []FileOp
	seen := map[string]bool{}
	for _, a := range e.Attach {
		// An attachment's name is one plain path segment: the rule a
		// feature id's folder name follows.
		if !pi.ValidFeatureID(a.Name) || a.Name == "evidence.json" || seen[a.Name] {
			return nil, entryError(i, e.CriterionID, "attach", "attachment name %s: want a new plain file name (letters, digits, '.', '_', '-'), not evidence.json", quote(a.Name))
		}
		seen[a.Name] = true
		target := filepath.Join(dir, filepath.FromSlash(run), a.Name)
		if err := vfs.CheckWrite(dir, target); err != nil {
			return nil, fmt.Errorf("refusing to write: %w", err)
		}
		out = append(out, FileOp{Path: target, Create: true, Content: a.Content})
	}
	return out, nil
}

// allocateRun picks work/<segment>/evidence/<stamp>[-n], skipping names that
// exist or that this plan already took.
func allocateRun(fsys vfs.FS, dir, segment, stamp string, reserved map[string]bool) (string, error) {
	base := path.Join("work", segment, "evidence")
	for n := 0; n < 10000; n++ {
		rel := path.Join(base, runName(stamp, n))
		if reserved[rel] {
			continue
		}
		_, err := fsys.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			reserved[rel] = true
			return rel, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("no free run directory under %s for stamp %s", base, stamp)
}

// planCriterionState returns the write of criterion-state.json with the
// latest record per VAL; the last entry for a VAL in a batch wins.
func planCriterionState(fsys vfs.FS, dir, charterID string, written []Written, records []stateRecord, ts string) (FileOp, error) {
	p := filepath.Join(dir, "criterion-state.json")
	old, err := fsys.ReadFile(p)
	create := errors.Is(err, fs.ErrNotExist)
	if err != nil && !create {
		return FileOp{}, err
	}
	var file object
	if !create {
		if err := json.Unmarshal(old, &file); err != nil {
			return FileOp{}, fmt.Errorf("criterion-state.json is not a JSON object (%v): fix or remove it before recording", err)
		}
	}
	if _, ok := file.get("charterId"); !ok {
		v, _ := jsonenc.Marshal(charterID)
		file.prepend("charterId", v)
	}
	var criteria object
	if raw, ok := file.get("criteria"); ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &criteria); err != nil {
			return FileOp{}, fmt.Errorf("criterion-state.json: criteria is not an object (%v): fix it before recording", err)
		}
	}
	for i, w := range written {
		v, err := jsonenc.Marshal(records[i])
		if err != nil {
			return FileOp{}, err
		}
		criteria.set(w.CriterionID, v)
	}
	v, err := jsonenc.Marshal(&criteria)
	if err != nil {
		return FileOp{}, err
	}
	file.set("criteria", v)
	v, _ = jsonenc.Marshal(ts)
	file.set("lastToolWriteAt", v)
	content, err := jsonenc.Indent(&file)
	if err != nil {
		return FileOp{}, err
	}
	if create {
		old = nil
	}
	at, _ := time.Parse(time.RFC3339Nano, ts)
	return FileOp{Path: p, Create: create, Content: content, OldContent: old, ModTime: at}, nil
}
