// Package rectest helps tests read recordings back and damage them.
package rectest

import (
	"io"
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// Cut removes the last n bytes of the file at path, as a kill or a full
// disk would leave it.
func Cut(t testing.TB, path string, n int64) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-n); err != nil {
		t.Fatal(err)
	}
}

// Replay reads the whole recording at path into a fresh store, failing
// the test on any damaged line, and returns the store and the closed
// reader (its Header, Frames and Ended).
func Replay(t testing.TB, path string) (*capture.Store, *recordings.Reader) {
	t.Helper()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	store, p := recordings.NewStore(capture.Config{})
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return store, rd
		}
		if err != nil {
			t.Fatal(err)
		}
		p.Apply(rec)
	}
}
