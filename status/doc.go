// Package status computes what pi-charter's charter_status reports for a
// charter directory, from its files alone: lifecycle status, milestone
// progress, the latest outcome of every VAL, drift (uncovered, stale,
// readyNext, sidecarDrift, milestoneArtifacts), what blocks completion, the
// upstream parse warnings, the commands, and nextActions[] consistent with
// the lifecycle. The JSON form is documented in docs/status-json.md.
package status
