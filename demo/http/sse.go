package demohttp

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// sseEvent is one Server-Sent Event as the server writes it.
type sseEvent struct {
	id     string        // the id field ("" : none)
	name   string        // the event field ("" : none, a "message" event)
	retry  time.Duration // the retry field (0: none)
	data   []byte        // the data, one data field per line
	noData bool          // write no data field at all (misbehave empty_event)
}

// appendTo appends the event's lines and the blank line that ends it. Data
// is split at CR, LF and CRLF, each piece its own data field, so that no
// line break of the data can end a field early.
func (e sseEvent) appendTo(b []byte) []byte {
	if e.id != "" {
		b = append(append(append(b, "id: "...), e.id...), '\n')
	}
	if e.name != "" {
		b = append(append(append(b, "event: "...), e.name...), '\n')
	}
	if e.retry > 0 {
		b = strconv.AppendInt(append(b, "retry: "...), e.retry.Milliseconds(), 10)
		b = append(b, '\n')
	}
	if !e.noData {
		data := e.data
		for {
			i := bytes.IndexAny(data, "\r\n")
			if i < 0 {
				b = appendField(b, "data", data)
				break
			}
			b = appendField(b, "data", data[:i])
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			data = data[i+1:]
		}
	}
	return append(b, '\n')
}

// appendField appends "name: value" (or "name:" for an empty value).
func appendField(b []byte, name string, value []byte) []byte {
	b = append(append(b, name...), ':')
	if len(value) > 0 {
		b = append(append(b, ' '), value...)
	}
	return append(b, '\n')
}

// comment is an SSE comment line, with the blank line that lets a reader
// see it at once; text must hold no line break.
func comment(text string) []byte { return []byte(": " + text + "\n\n") }

// eventID is the id of event seq of stream num: "NUM-SEQ". Ids are unique
// within a session, and name the stream a Last-Event-ID resumes.
func eventID(num, seq uint64) string { return fmt.Sprintf("%d-%d", num, seq) }

// parseEventID reads an id of eventID.
func parseEventID(id string) (num, seq uint64, ok bool) {
	a, b, found := strings.Cut(id, "-")
	if !found {
		return 0, 0, false
	}
	num, err1 := strconv.ParseUint(a, 10, 64)
	seq, err2 := strconv.ParseUint(b, 10, 64)
	return num, seq, err1 == nil && err2 == nil
}
