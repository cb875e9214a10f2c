package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// replayFrames is the size of the recording the replay benchmark opens.
const replayFrames = 1_000_000

// writeMillion writes a recording of a million small notifications.
func writeMillion(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "million"+recordings.Ext)
	w, err := recordings.Create(path, recordings.Header{Target: "demo", Transport: "stdio"}, recordings.Options{})
	if err != nil {
		b.Fatal(err)
	}
	at := time.Now()
	for i := range replayFrames {
		raw := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%d}}`+"\n", i)
		m, err := jsonrpc.DecodeMessage(raw[:len(raw)-1])
		if err != nil {
			b.Fatal(err)
		}
		w.Append(&capture.Frame{Time: at.Add(time.Duration(i) * time.Microsecond), Dir: capture.In, Conn: "stdio", Raw: raw, Msg: m,
			Fields: []proto.Field{{Offset: 0, Len: len(raw) - 1, Name: "body", Kind: proto.FieldBody}, {Offset: len(raw) - 1, Len: 1, Name: "delimiter", Value: "LF", Kind: proto.FieldDelimiter}}})
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReplayOpenMillion opens a 1,000,000-frame recording in the
// replay TUI and measures the time to the first screen that shows frames
// (target ≤ 1 s), and the time to have every frame in the store, against
// the baseline of reading the file once and counting its lines, in the
// same run. "open-ms" is time to the first screen; "ratio" is that time
// over the baseline's.
func BenchmarkReplayOpenMillion(b *testing.B) {
	path := writeMillion(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var open, all, scan time.Duration
	runs := 0
	for b.Loop() {
		start := time.Now()
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		n, buf := 0, make([]byte, 1<<20)
		for {
			k, err := f.Read(buf)
			n += bytes.Count(buf[:k], []byte("\n"))
			if err == io.EOF {
				break
			}
		}
		_ = f.Close()
		scan += time.Since(start)

		start = time.Now()
		p, err := recordings.NewPlayer(path, capture.Config{}, recordings.SpeedAtOnce)
		if err != nil {
			b.Fatal(err)
		}
		r := NewReplay(p)
		r.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		for p.Position().Frames == 0 {
			time.Sleep(100 * time.Microsecond)
		}
		r.inner.refresh(time.Now())
		if v := r.View().Content; !bytes.Contains([]byte(v), []byte("notifications/message")) {
			b.Fatal("the first screen shows no frame")
		}
		open += time.Since(start)
		for !p.Position().Done {
			time.Sleep(time.Millisecond)
		}
		all += time.Since(start)
		_ = r.Close()
		runs++
	}
	b.ReportMetric(float64(open.Milliseconds())/float64(runs), "open-ms")
	b.ReportMetric(all.Seconds()/float64(runs), "all-frames-s")
	b.ReportMetric(float64(scan.Milliseconds())/float64(runs), "line-scan-ms")
	b.ReportMetric(open.Seconds()/scan.Seconds(), "ratio")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
}
