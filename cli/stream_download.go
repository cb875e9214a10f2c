package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// download is one stream the server sends, saved under --stream-out as
// DIR/GUID.bin (binary chunks as they are) or DIR/GUID.ndjson (one JSON
// value a line): the GUID, never a name the server chose, names the file.
type download struct {
	id      proto.GUID
	meta    *proto.StreamMeta
	path    string
	file    *os.File
	failed  error // the first write that failed
	bytes   int64
	chunks  int64
	ended   bool
	endedAt time.Time
	summary json.RawMessage
	closed  bool
}

// openDownload starts saving the stream ev opens (or the first chunk of
// one whose start was not seen).
func (g *gatewayRun) openDownload(ev ws.StreamEvent) *download {
	d := &download{id: ev.ID, meta: ev.Meta}
	if g.f.streamOut == "" {
		return d
	}
	ext := ".bin"
	if (ev.Meta != nil && !ev.Meta.Binary) || (ev.Type == proto.StreamChunk && !ev.Binary) {
		ext = ".ndjson"
	}
	if err := os.MkdirAll(g.f.streamOut, 0o755); err != nil {
		d.failed = fmt.Errorf("creating %s: %w", g.f.streamOut, err)
		return d
	}
	d.path = filepath.Join(g.f.streamOut, ev.ID.String()+ext)
	d.file, d.failed = os.Create(d.path)
	return d
}

// write saves one chunk.
func (d *download) write(ev ws.StreamEvent) {
	d.chunks++
	d.bytes += int64(len(ev.Data))
	if d.file == nil || d.failed != nil {
		return
	}
	data := ev.Data
	if !ev.Binary {
		data = append(append([]byte(nil), data...), '\n')
	}
	if _, err := d.file.Write(data); err != nil {
		d.failed = err
	}
}

// end records the stream's done or error.
func (d *download) end(summary json.RawMessage) {
	d.ended, d.endedAt, d.summary = true, time.Now(), summary
}

// closeDownloads closes the files and says what each stream brought.
func (g *gatewayRun) closeDownloads() {
	for _, d := range g.downloads {
		if d.closed {
			continue
		}
		d.closed = true
		what := fmt.Sprintf("stream %s", d.id)
		if d.meta != nil && d.meta.Name != "" {
			what += fmt.Sprintf(" (%s)", termtext.LineMax(d.meta.Name, 80))
		}
		what += fmt.Sprintf(": %d bytes in %d chunks", d.bytes, d.chunks)
		if !d.ended {
			what += ", not ended"
		}
		if d.file != nil {
			if err := d.file.Close(); err != nil && d.failed == nil {
				d.failed = err
			}
			what += " saved to " + d.path
		}
		if d.failed != nil {
			what += "; saving failed: " + d.failed.Error()
		}
		g.io.diag.Println(what)
	}
}
