package recordings

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of the reading of past recordings for the tools they called:
// the headers Latest opens, the records CalledTools reads and the names it
// keeps.
const (
	maxLatestHeaders = KeepSessions
	maxScanRecords   = 200_000
	maxCalledNames   = 256
)

// Latest returns the newest recording in dir of a session to target, as
// its header names it, other than the file except (the session recording
// now); "" when there is none. It opens only the files whose name carries
// target's name, newest first.
func Latest(dir, target, except string) (string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	suffix := "-" + slug(target) + Ext
	var names []string
	for _, d := range ents {
		if !d.IsDir() && strings.HasSuffix(d.Name(), suffix) {
			names = append(names, d.Name())
		}
	}
	slices.Sort(names)
	slices.Reverse(names)
	for i, n := range names {
		if i >= maxLatestHeaders {
			break
		}
		path := filepath.Join(dir, n)
		if except != "" && sameFile(path, except) {
			continue
		}
		r, err := Open(path)
		if err != nil {
			continue
		}
		h := r.Header()
		_ = r.Close()
		if h.Target == target {
			return path, nil
		}
	}
	return "", nil
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// CalledTools returns the names of the tools the client of a recording
// called (the tools/call requests it sent), in the order first called,
// reading at most maxScanRecords records; a torn or corrupt line ends or
// is skipped as replay does.
func CalledTools(path string) ([]string, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var names []string
	for range maxScanRecords {
		rec, err := r.Next()
		var ce *CorruptError
		switch {
		case errors.As(err, &ce):
			continue
		case errors.Is(err, io.EOF):
			return names, nil
		case err != nil:
			return names, nil // a torn last line: what came before stands
		}
		if name, ok := calledTool(rec); ok && !slices.Contains(names, name) {
			names = append(names, name)
			if len(names) == maxCalledNames {
				break
			}
		}
	}
	return names, nil
}

// calledTool returns the tool a record's tools/call request names.
func calledTool(rec *Record) (string, bool) {
	if rec.Kind != RecFrame || rec.Frame == nil || rec.Frame.Dir != capture.Out {
		return "", false
	}
	m := rec.Frame.Msg
	if m == nil || m.Kind() != jsonrpc.KindRequest || m.Method != mcp.MethodToolsCall {
		return "", false
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Name == "" {
		return "", false
	}
	return p.Name, true
}
