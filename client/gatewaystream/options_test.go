package gatewaystream

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The start names the method and the upload's name and size, and Meta
// adds to it without renaming the method; a missing upload or bad meta is
// the input's fault.
func TestStartMeta(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.bin")
	if err := os.WriteFile(path, make([]byte, 10), 0o600); err != nil {
		t.Fatal(err)
	}
	meta, err := StartMeta("m", Options{Upload: path, Meta: `{"method":"other","mime":"x/y"}`})
	if err != nil || meta.Method != "m" || meta.Name != "a.bin" || meta.TotalSize == nil || *meta.TotalSize != 10 || !meta.Binary || meta.Mime != "x/y" {
		t.Errorf("meta %+v, %v", meta, err)
	}
	if meta, err := StartMeta("m", Options{Upload: "-", Text: true}); err != nil || meta.Binary || meta.Name != "" || meta.TotalSize != nil {
		t.Errorf("text from stdin: %+v, %v", meta, err)
	}
	for _, o := range []Options{{Upload: filepath.Join(t.TempDir(), "missing")}, {Meta: "[1]"}} {
		var f *Failure
		if _, err := StartMeta("m", o); !errors.As(err, &f) || f.Kind != Input {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// Binary chunks are ChunkSize bytes, the last one shorter; text chunks
// are the non-blank lines.
func TestChunker(t *testing.T) {
	next := New(Options{ChunkSize: 4}).chunker(strings.NewReader("abcdefghij"))
	var got []string
	for {
		c, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(c))
	}
	if strings.Join(got, "|") != "abcd|efgh|ij" {
		t.Errorf("binary chunks %q", got)
	}
	g := New(Options{Text: true})
	next = g.chunker(strings.NewReader("1\n\n  \n\"two\"\n"))
	got = got[:0]
	for {
		c, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		got = append(got, string(c))
	}
	if strings.Join(got, "|") != `1|"two"` || g.line != 4 {
		t.Errorf("text chunks %q, line %d", got, g.line)
	}
}
