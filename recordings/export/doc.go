// Package export writes a recording in formats other tools read: JSON
// Lines for jq (one object per frame, stream mark and SSE event) and HAR
// 1.2 for the HTTP exchanges of an HTTP session (docs/export-formats.md).
// Every format reads the recording once, in order, and writes everything
// readable of a damaged one (recordings.Walk): a torn last line (a crash)
// ends it, a corrupt line is skipped, and the Damage says which.
package export
