package ui

import (
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/proto/flow"
)

// Bounds of the datagram board.
const (
	maxLogLines = 1000
	maxRawRows  = 200
)

// logLine is one log datagram.
type logLine struct {
	at            time.Time
	conn          string
	req           uint32
	level, logger string
	text          string
}

// audioLevel is the level of the latest audio datagram (PCM s16le mono).
type audioLevel struct {
	req    uint32
	rms    float64 // root mean square of the samples, 0…1 of full scale
	frames int64   // audio datagrams seen
	at     time.Time
}

// rawRow is a datagram on a channel the seed does not define, or one that
// did not decode.
type rawRow struct {
	at   time.Time
	ch   uint8
	req  uint32
	size int
	head string // hex of its first bytes
	err  string
}

// datagramBoard is what the datagram channels carried, kept bounded: the
// newest log lines, the audio level and the raw rows of unknown channels.
// Progress datagrams are handed on to the progress board.
type datagramBoard struct {
	logs  []logLine // newest last
	audio *audioLevel
	raw   []rawRow // newest last
	total uint64
}

// newDatagramBoard returns an empty board.
func newDatagramBoard() datagramBoard { return datagramBoard{} }

// add reads one datagram frame; a progress datagram's report is returned
// for the progress board.
func (b *datagramBoard) add(f *capture.Frame) (progressReport, bool) {
	b.total++
	h, payload, _, err := flow.ParseDatagramHeader(f.Raw)
	if err != nil || f.Err != nil {
		if err == nil {
			err = f.Err
		}
		b.addRaw(f, h, err.Error())
		return progressReport{}, false
	}
	switch h.Channel {
	case flow.ChannelProgress:
		p, err := flow.DecodeProgressDatagram(f.Enc, payload)
		if err != nil {
			b.addRaw(f, h, err.Error())
			return progressReport{}, false
		}
		return progressReport{progress: p.Progress, total: p.Total, message: p.Message}, true
	case flow.ChannelLog:
		l, err := flow.DecodeLogDatagram(f.Enc, payload)
		if err != nil {
			b.addRaw(f, h, err.Error())
			return progressReport{}, false
		}
		b.logs = appendBounded(b.logs, logLine{at: f.Time, conn: f.Conn, req: h.RequestID, level: l.Level, logger: l.Logger, text: logText(l.Data)}, maxLogLines)
	case flow.ChannelAudio:
		frames := int64(1)
		if b.audio != nil {
			frames += b.audio.frames
		}
		b.audio = &audioLevel{req: h.RequestID, rms: media.RMS16(payload), frames: frames, at: f.Time}
	default:
		b.addRaw(f, h, "")
	}
	return progressReport{}, false
}

// addRaw keeps a raw row.
func (b *datagramBoard) addRaw(f *capture.Frame, h flow.DatagramHeader, errText string) {
	head := f.Raw[:min(len(f.Raw), 16)]
	b.raw = appendBounded(b.raw, rawRow{at: f.Time, ch: uint8(h.Channel), req: h.RequestID,
		size: f.Size, head: hex.EncodeToString(head), err: errText}, maxRawRows)
}

// appendBounded appends v; past twice limit it keeps the newest limit
// entries, so that the copy is paid once per limit appends.
func appendBounded[T any](s []T, v T, limit int) []T {
	s = append(s, v)
	if len(s) > 2*limit {
		s = append(s[:0:0], s[len(s)-limit:]...)
	}
	return s
}

// logText renders the data of a log datagram: a string as is, anything
// else as compact JSON.
func logText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	return string(data)
}
