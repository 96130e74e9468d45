package gen

import (
	"fmt"
	"os"
	"path/filepath"
)

// Project describes a generated pi project.
type Project struct {
	CharterID  string // default "bench"
	Milestones int
	VALs       int // per milestone
	Runs       int // evidence runs, one row each, for the first VALs
	Sources    int // files under src/, spread over folders of 100
}

// Write creates the project under root and returns the criteria.md path.
func (p Project) Write(root string) (string, error) {
	id := p.CharterID
	if id == "" {
		id = "bench"
	}
	dir := filepath.Join(root, ".pi", "charters", id)
	files := map[string][]byte{
		filepath.Join(dir, "charter.md"):  Charter(id),
		filepath.Join(dir, "criteria.md"): Criteria(p.Milestones, p.VALs),
	}
	for r := 0; r < p.Runs; r++ {
		m, v := r/max(p.VALs, 1), r%max(p.VALs, 1)
		seg := fmt.Sprintf("m%d", m+1)
		stamp := fmt.Sprintf("2026-11-%02dT10-%02d-00-000Z", 1+r/60%28, r%60)
		ts := fmt.Sprintf("2026-11-%02dT10:%02d:00.000Z", 1+r/60%28, r%60)
		files[filepath.Join(dir, "work", seg, "evidence", stamp, "evidence.json")] = Evidence(id, seg, ID(m, v), "pass", ts)
	}
	for i := 0; i < p.Sources; i++ {
		files[filepath.Join(root, "src", fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%03d.go", i%100))] =
			[]byte(fmt.Sprintf("package pkg%03d\n", i/100))
	}
	for path, b := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "criteria.md"), nil
}
