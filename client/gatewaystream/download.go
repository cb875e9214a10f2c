package gatewaystream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/transports/ws"
)

// download is one stream the server sends, saved under StreamOut as
// DIR/GUID.bin (binary chunks as they are) or DIR/GUID.ndjson (one JSON
// value a line): the GUID, never a name the server chose, names the file.
type download struct {
	dir     string // StreamOut; "" saves nothing
	id      gateway.GUID
	meta    *gateway.StreamMeta
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

// MaxStreams bounds the server streams one run follows; past it, a start
// is warned about and its stream not saved.
const MaxStreams = 64

// openDownload starts following the stream ev opens (or the first chunk
// of one whose start was not seen); its file opens with its first chunk.
// Past MaxStreams it returns nil.
func (g *Run) openDownload(ev ws.StreamEvent) *download {
	if len(g.downloads) >= MaxStreams {
		if !g.tooMany {
			g.tooMany = true
			g.problems++
			g.o.Println(fmt.Sprintf("warning: the server opened more than %d streams at once; the others are not saved", MaxStreams))
		}
		return nil
	}
	return &download{id: ev.ID, meta: ev.Meta, dir: g.o.StreamOut}
}

// create opens the stream's file under dir: GUID.bin, or GUID.ndjson for
// text chunks.
func (d *download) create(binary bool) {
	ext := ".ndjson"
	if binary {
		ext = ".bin"
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		d.failed = fmt.Errorf("creating %s: %w", d.dir, err)
		return
	}
	d.path = filepath.Join(d.dir, d.id.String()+ext)
	d.file, d.failed = os.Create(d.path)
}

// write saves one chunk: a binary payload as it is, a text chunk's JSON
// value compacted on a line of its own.
func (d *download) write(ev ws.StreamEvent) {
	d.chunks++
	d.bytes += int64(len(ev.Data))
	if d.dir == "" || d.failed != nil {
		return
	}
	if d.file == nil {
		d.create(ev.Binary)
		if d.failed != nil {
			return
		}
	}
	data := ev.Data
	if !ev.Binary {
		var line bytes.Buffer
		if err := json.Compact(&line, data); err != nil {
			line.Reset()
			line.Write(data)
		}
		line.WriteByte('\n')
		data = line.Bytes()
	}
	if _, err := d.file.Write(data); err != nil {
		d.failed = err
	}
}

// end records the stream's done or error.
func (d *download) end(summary json.RawMessage) {
	d.ended, d.endedAt, d.summary = true, time.Now(), summary
}

// CloseDownloads closes the files of the server's streams and says what
// each brought, once; Run closes them when it returns.
func (g *Run) CloseDownloads() {
	for _, d := range g.downloads {
		if d.closed {
			continue
		}
		d.closed = true
		what := fmt.Sprintf("stream %s", d.id)
		if d.meta != nil && d.meta.Name != "" {
			what += fmt.Sprintf(" (%s)", termtext.LineMax(d.meta.Name, 80))
		}
		what += ": " + plural.Count(d.bytes, "byte", "bytes") + " in " + plural.Count(d.chunks, "chunk", "chunks")
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
		g.o.Println(what)
	}
}
