package live

import (
	"bytes"

	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// viewerRedaction is how the frames sent to viewers are masked: as the
// session's recording says, with proxy.SecretHeaders masked besides.
func viewerRedaction(h recordings.Header) recordings.Options {
	return recordings.Options{NoRedact: h.Redaction == recordings.RedactNone, StreamMax: h.StreamMax, SecretHeaders: proxy.SecretHeaders}
}

// redacting says whether viewers are shown credentials masked.
func (h *Hub) redacting() bool { return h.sess.Header().Redaction != recordings.RedactNone }

// maskHeld masks the credentials in the bodies of paused messages, as
// their frames are masked.
func (h *Hub) maskHeld(held []proxy.Held) []proxy.Held {
	if !h.redacting() {
		return held
	}
	for i := range held {
		held[i].Body = recordings.Redact(held[i].Body)
	}
	return held
}

// unmask puts back, in an edited body, the credentials a viewer was shown
// masked: each masked string value of the paused message's body that the
// edit kept (in order) is the original value again. A mask keeps every
// length, so the shown and the original bodies align byte for byte.
func (h *Hub) unmask(edited []byte, n uint64) []byte {
	if !h.redacting() {
		return edited
	}
	var original []byte
	for _, m := range h.sess.Held() {
		if m.N == n {
			original = m.Body
		}
	}
	shown := recordings.Redact(original)
	if len(shown) != len(original) {
		return edited
	}
	for i := 0; i < len(shown); i++ {
		if shown[i] == original[i] {
			continue
		}
		lo := bytes.LastIndexByte(shown[:i], '"')
		hi := bytes.IndexByte(shown[i:], '"')
		if lo < 0 || hi < 0 {
			break
		}
		hi += i
		edited = bytes.Replace(edited, shown[lo:hi+1], original[lo:hi+1], 1)
		i = hi
	}
	return edited
}
