package live

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/recordings"
)

// viewerRedaction is how the frames sent to viewers are masked: as the
// session's recording is (Session.Redaction), its literal secrets (the
// --header values) and secret header names included.
func viewerRedaction(s *proxy.Session) recordings.Options {
	o := s.Redaction()
	return recordings.Options{NoRedact: o.NoRedact, Secrets: o.Secrets, SecretHeaders: o.SecretHeaders, StreamMax: s.Header().StreamMax}
}

// redacting says whether viewers are shown credentials masked.
func (h *Hub) redacting() bool { return h.sess.Header().Redaction != recordings.RedactNone }

// maskHeld masks the credentials in the bodies of paused messages: each
// value a recording masks (recordings.SecretRanges) is shown as a mask of
// its own, numbered within its message ("[redacted 24 bytes #2]"), so
// that unmask can tell which credential each mask an edit kept stands
// for, wherever the edit moved it.
func (h *Hub) maskHeld(held []proxy.Held) []proxy.Held {
	if !h.redacting() {
		return held
	}
	for i := range held {
		held[i].Body = heldShown(held[i].Body)
	}
	return held
}

// heldShown is body with its credentials replaced by numbered masks.
func heldShown(body []byte) []byte {
	ranges := recordings.SecretRanges(body)
	if len(ranges) == 0 {
		return body
	}
	out := make([]byte, 0, len(body)+len(ranges)*8)
	at := 0
	for k, r := range ranges {
		out = append(append(out, body[at:r[0]]...), heldMask(k+1, r[1]-r[0])...)
		at = r[1]
	}
	return append(out, body[at:]...)
}

// heldMask is the mask shown for the k-th credential of a paused
// message, of n bytes. It holds no character a JSON encoder escapes.
func heldMask(k, n int) string {
	return "[redacted " + strconv.Itoa(n) + " bytes #" + strconv.Itoa(k) + "]"
}

// unmask puts back, in an edited body, the credentials a viewer was shown
// masked: each numbered mask the edit kept is its credential again. An
// edit that holds a mask twice, a mask whose text the paused message
// held besides, or a changed mask is refused: its credential could land
// in the wrong place or a mask reach the server.
func (h *Hub) unmask(edited []byte, n uint64) ([]byte, error) {
	if !h.redacting() {
		return edited, nil
	}
	var original []byte
	for _, m := range h.sess.Held() {
		if m.N == n {
			original = m.Body
		}
	}
	return restoreHeld(edited, original)
}

// restoreHeld is edited, a viewer's edit of heldShown(original), with
// each numbered mask it kept the credential of original it stands for.
func restoreHeld(edited, original []byte) ([]byte, error) {
	ranges := recordings.SecretRanges(original)
	if len(ranges) == 0 {
		return edited, nil
	}
	type put struct{ at, n, k int }
	var puts []put
	for k, r := range ranges {
		mask := []byte(heldMask(k+1, r[1]-r[0]))
		i := bytes.Index(edited, mask)
		if i < 0 {
			continue // the edit dropped it
		}
		if bytes.Contains(original, mask) || bytes.Contains(edited[i+len(mask):], mask) {
			return nil, fmt.Errorf("the edit holds the mask %s more than once: keep it once, or type the value it stands for", mask)
		}
		puts = append(puts, put{at: i, n: len(mask), k: k})
	}
	for _, m := range heldMaskPattern.FindAllIndex(edited, -1) {
		ours := slices.ContainsFunc(puts, func(p put) bool { return p.at == m[0] })
		if !ours && !bytes.Contains(original, edited[m[0]:m[1]]) {
			return nil, fmt.Errorf("the edit holds %s, which masks no credential of this message: keep each mask as it was shown, or type the value", edited[m[0]:m[1]])
		}
	}
	// Masks cannot overlap (each starts with '[' and ends with the only
	// ']' it holds): each is put back where it stands.
	slices.SortFunc(puts, func(a, b put) int { return cmp.Compare(a.at, b.at) })
	out := make([]byte, 0, len(edited)+len(original))
	at := 0
	for _, p := range puts {
		r := ranges[p.k]
		out = append(append(out, edited[at:p.at]...), original[r[0]:r[1]]...)
		at = p.at + p.n
	}
	return append(out, edited[at:]...), nil
}

// heldMaskPattern finds what looks like a mask heldMask writes.
var heldMaskPattern = regexp.MustCompile(`\[redacted [0-9]+ bytes #[0-9]+\]`)
