package prompts

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FileValue is the answer of a file prompt: the chosen file's name (no
// directory), its size in bytes and its content in standard base64.
type FileValue struct {
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Content string `json:"content"`
}

// ReadFileValue reads the file at path into a FileValue's JSON — the
// answer a file prompt sends — refusing anything that is not a regular
// file or is larger than limit bytes.
func ReadFileValue(path string, limit int64) (json.RawMessage, error) {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if info.Size() > limit {
		return nil, tooLarge(name, info.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	if int64(len(data)) > limit { // it grew while being read
		return nil, tooLarge(name, int64(len(data)), limit)
	}
	return json.Marshal(FileValue{Name: name, Size: int64(len(data)), Content: base64.StdEncoding.EncodeToString(data)})
}

// tooLarge says a file is over the size limit, with both sizes.
func tooLarge(name string, size, limit int64) error {
	return fmt.Errorf("%s is %s, larger than the %s a file answer may have", name, byteSize(size), byteSize(limit))
}

// byteSize writes a size the way people read it: 12 B, 3.4 KiB, 10 MiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		f /= unit
		suffix = s
		if f < unit {
			break
		}
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", f), ".0") + " " + suffix
}

// acceptList normalises a file prompt's accepted extensions: "csv" and
// ".csv" both become ".csv"; MIME types (with a slash) are left to the
// server, since a name cannot be checked against them.
func acceptList(accept []string) []string {
	var out []string
	for _, a := range accept {
		a = strings.TrimSpace(a)
		if a == "" || strings.Contains(a, "/") {
			continue
		}
		if !strings.HasPrefix(a, ".") {
			a = "." + a
		}
		out = append(out, a)
	}
	return out
}
