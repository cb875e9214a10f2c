package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// cborMessageReader decodes message maps straight from CBOR: the envelope's
// own fields are read from their heads, and only params, result and error
// data are written as JSON (into a reused buffer, then copied out at their
// exact size). A member whose value only the JSON rules can decide (a
// jsonrpc that is not text, an id that is a float or a tagged item, …)
// sends the whole message
// through CBORToJSON and DecodeMessage instead, so both encodings are
// decoded by the same rules.
type cborMessageReader struct {
	cborToJSON
	generic bool    // the message needs the JSON rules
	dup     error   // the first duplicate key of the message or its error
	seen    Members // the message's top-level members, for CheckEnvelope
	ids     []ID    // every top-level id read, in order ("id" may come twice)
	scratch *[]byte // the pooled buffer out was taken from
}

// cborScratch holds the JSON buffers of the readers.
var cborScratch = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledScratch keeps a buffer grown by a huge message out of the pool.
const maxPooledScratch = 64 << 10

// newCBORMessageReader returns a reader of body; release gives its buffer back.
func newCBORMessageReader(body []byte) cborMessageReader {
	scratch := cborScratch.Get().(*[]byte)
	return cborMessageReader{cborToJSON: cborToJSON{in: body, out: (*scratch)[:0]}, scratch: scratch}
}

// release returns the reader's buffer to the pool.
func (r *cborMessageReader) release() {
	if cap(r.out) <= maxPooledScratch {
		*r.scratch = r.out[:0]
		cborScratch.Put(r.scratch)
	}
	r.out, r.scratch = nil, nil
}

// item decodes the message at off, nested in depth containers, and returns
// it with the offset after it. A body that is not well formed or breaks a
// limit gives no message unless its id was read before the break; a message
// that breaks a JSON-RPC rule (CheckEnvelope, a key given twice) is returned
// with the *EnvelopeError, as its Violation, like DecodeMessage does.
func (r *cborMessageReader) item(off, depth int) (*Message, int, error) {
	m, end, err := r.message(off, depth)
	if err != nil {
		err = fmt.Errorf("not a JSON-RPC message: %w", cborBodyError(len(r.in), err))
		if m == nil || m.ID == nil || r.generic {
			return nil, 0, err
		}
		return r.violation(m, off, len(r.in), err, !errors.Is(err, ErrCBORTooDeep))
	}
	if r.generic {
		if m, err = r.viaJSON(off, depth); m == nil {
			return nil, end, err
		}
		m.Raw = r.in[off:end]
		return m, end, err
	}
	if e := CheckEnvelope(m, &r.seen); e != nil || r.dup != nil {
		if r.dup != nil { // worded as on the JSON side, wrapping the CBOR fact
			e = &EnvelopeError{Reason: "its error object has a key twice: " + r.dup.Error(), Err: r.dup}
			if r.seen.Duplicate != "" {
				e.Reason = envelopeReason(m, &r.seen)
			}
		}
		return r.violation(m, off, end, e, false)
	}
	m.Raw = r.in[off:end]
	return m, end, nil
}

// violation returns the message carrying why the message at off..end
// cannot be delivered, with the *EnvelopeError it carries.
func (r *cborMessageReader) violation(m *Message, off, end int, cause error, malformed bool) (*Message, int, error) {
	e, ok := cause.(*EnvelopeError)
	if !ok {
		e = &EnvelopeError{Reason: cause.Error(), Err: cause, Malformed: malformed}
	}
	e.Request = r.seen.present&memberMethod != 0
	e.IDs = append([]ID(nil), r.ids...)
	v := violationMessage(r.in[off:end], e)
	if v == nil {
		return nil, end, e
	}
	return v, end, e
}

// viaJSON decodes the message at off through its JSON form.
func (r *cborMessageReader) viaJSON(off, depth int) (*Message, error) {
	c := cborToJSON{in: r.in}
	if _, err := c.value(off, depth, bytesAsBase64URL); err != nil {
		return nil, fmt.Errorf("not a JSON-RPC message: %w", cborBodyError(len(r.in), err))
	}
	return DecodeMessage(c.out)
}

// message reads the map at off into a Message, walking every byte of it.
// Anything but a map is left to the JSON rules.
func (r *cborMessageReader) message(off, depth int) (*Message, int, error) {
	r.generic, r.dup, r.seen, r.ids = false, nil, Members{}, r.ids[:0]
	h, err := readCBORHead(r.in, off)
	if err != nil {
		return nil, 0, err
	}
	if h.major != cborMap {
		end, err := r.leaveToJSON(off, depth)
		return nil, end, err
	}
	m := &Message{}
	end, err := r.pairs(h, off, depth, func(key []byte, pos int) (int, error) {
		r.seen.Add(string(key))
		return r.member(m, key, pos, depth+1)
	})
	return m, end, err
}

// pairs calls value for the key and the offset of the value of each pair
// of the map with head h at off, nested in depth containers, and notes the
// first key given twice.
func (r *cborMessageReader) pairs(h cborHead, off, depth int, value func(key []byte, pos int) (int, error)) (int, error) {
	var keys cborKeySet
	end, err := r.members(h, off, func(_ uint64, pos int) (int, error) {
		key, next, err := r.keyText(pos, depth+1)
		if err != nil {
			return 0, err
		}
		r.noteDuplicate(keys.add(key))
		return value(key, next)
	})
	r.noteDuplicate(keys.repeated())
	return end, err
}

// member reads the value at pos of the member key into m.
func (r *cborMessageReader) member(m *Message, key []byte, pos, depth int) (int, error) {
	var err error
	switch string(key) {
	case "jsonrpc":
		return r.str(&m.JSONRPC, pos, depth)
	case "method":
		return r.str(&m.Method, pos, depth)
	case "id":
		return r.id(m, pos, depth)
	case "params":
		m.Params, pos, err = r.raw(pos, depth)
		return pos, err
	case "result":
		m.Result, pos, err = r.raw(pos, depth)
		return pos, err
	case "error":
		return r.errorMember(m, pos, depth)
	}
	return r.skip(pos, depth)
}

// str reads a text string; anything else is left to the JSON rules.
func (r *cborMessageReader) str(dst *string, pos, depth int) (int, error) {
	h, err := readCBORHead(r.in, pos)
	switch {
	case err != nil:
		return 0, err
	case h.major == cborText && !h.indefinite():
		s, next, err := r.text(h, pos)
		if err != nil {
			return 0, err
		}
		if string(s) == Version {
			*dst = Version
		} else {
			*dst = string(s)
		}
		return next, nil
	}
	return r.leaveToJSON(pos, depth)
}

// id reads an integer that fits in 64 bits, a text string or null.
func (r *cborMessageReader) id(m *Message, pos, depth int) (int, error) {
	h, err := readCBORHead(r.in, pos)
	switch {
	case err != nil:
		return 0, err
	case cborIntFits(h, math.MaxInt64):
		m.ID = &ID{kind: idInt, num: cborInt(h)}
		r.ids = append(r.ids, *m.ID)
		return h.next, nil
	case h.major == cborText && !h.indefinite():
		m.ID = &ID{kind: idString}
		next, err := r.str(&m.ID.str, pos, depth)
		if err == nil {
			r.ids = append(r.ids, *m.ID)
		}
		return next, err
	case r.in[pos] == cborNull:
		m.ID = nil // as encoding/json sets a pointer for null
		return h.next, nil
	}
	return r.leaveToJSON(pos, depth)
}

// raw writes the item at pos as JSON and returns a copy of exactly its size.
func (r *cborMessageReader) raw(pos, depth int) (json.RawMessage, int, error) {
	start := len(r.out)
	end, err := r.value(pos, depth, bytesAsBase64URL)
	if err != nil {
		return nil, 0, err
	}
	raw := make(json.RawMessage, len(r.out)-start)
	copy(raw, r.out[start:])
	r.out = r.out[:start]
	return raw, end, nil
}

// leaveToJSON walks the item at pos and marks the message for the JSON rules.
func (r *cborMessageReader) leaveToJSON(pos, depth int) (int, error) {
	r.generic = true
	return r.skip(pos, depth)
}

// skip walks the item at pos, checking it, and writes nothing.
func (r *cborMessageReader) skip(pos, depth int) (int, error) {
	start := len(r.out)
	end, err := r.value(pos, depth, bytesAsBase64URL)
	r.out = r.out[:start]
	return end, err
}

// errorMember reads the error object: a map of code, message and data, or null.
func (r *cborMessageReader) errorMember(m *Message, pos, depth int) (int, error) {
	h, err := readCBORHead(r.in, pos)
	switch {
	case err != nil:
		return 0, err
	case r.in[pos] == cborNull:
		m.Error = nil
		r.seen.NullError = true
		return h.next, nil
	case h.major != cborMap:
		return r.leaveToJSON(pos, depth)
	case depth >= CBORMaxNestedLevels:
		return 0, cborTooDeep(pos)
	}
	if m.Error == nil {
		m.Error = &Error{}
	}
	e := m.Error
	hasCode := false
	end, err := r.pairs(h, pos, depth, func(key []byte, next int) (int, error) {
		var err error
		switch string(key) {
		case "code":
			hasCode = true
			return r.code(&e.Code, next, depth+1)
		case "message":
			return r.str(&e.Message, next, depth+1)
		case "data":
			e.Data, next, err = r.raw(next, depth+1)
			return next, err
		}
		return r.skip(next, depth+1)
	})
	if !hasCode {
		r.generic = true // the JSON rules name the missing code
	}
	return end, err
}

// code reads an integer that fits in an int; anything else is left to the
// JSON rules.
func (r *cborMessageReader) code(dst *int, pos, depth int) (int, error) {
	h, err := readCBORHead(r.in, pos)
	switch {
	case err != nil:
		return 0, err
	case cborIntFits(h, math.MaxInt):
		*dst = int(cborInt(h))
		return h.next, nil
	}
	return r.leaveToJSON(pos, depth)
}

// cborIntFits reports whether h is an integer in [-max-1, max].
func cborIntFits(h cborHead, max uint64) bool {
	return (h.major == cborUint || h.major == cborNegint) && h.arg <= max
}

// cborInt returns the integer of h, which fits in an int64.
func cborInt(h cborHead) int64 {
	if h.major == cborNegint {
		return -1 - int64(h.arg)
	}
	return int64(h.arg)
}

// noteDuplicate records key as the first key found twice.
func (r *cborMessageReader) noteDuplicate(key []byte) {
	if key != nil && r.dup == nil {
		r.dup = fmt.Errorf("%w: %.40q", ErrCBORDuplicateKey, key)
	}
}

// cborKeySet finds a key given twice in one map. The first keys are
// compared one by one as they come; past those, keys are only collected
// (a slice header each, no copy) and sorted once the map is read.
type cborKeySet struct {
	first [maxKeyList][]byte
	n     int
	more  [][]byte
}

// maxKeyList is the number of keys compared as they come.
const maxKeyList = 8

// add adds key and returns it when it repeats one of the first keys.
func (s *cborKeySet) add(key []byte) []byte {
	if s.n < maxKeyList {
		for _, k := range s.first[:s.n] {
			if bytes.Equal(k, key) {
				return key
			}
		}
		s.first[s.n] = key
		s.n++
		return nil
	}
	s.more = append(s.more, key)
	return nil
}

// repeated returns a key given twice among all the keys added, or nil.
func (s *cborKeySet) repeated() []byte {
	if len(s.more) == 0 {
		return nil
	}
	all := append(s.more, s.first[:s.n]...)
	slices.SortFunc(all, bytes.Compare)
	for i := 1; i < len(all); i++ {
		if bytes.Equal(all[i-1], all[i]) {
			return all[i]
		}
	}
	return nil
}
