package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Member is one key and its value in a JSON object, as byte offsets into
// the file they were found in.
type Member struct {
	Key string
	// KeyStart is the key's opening quote; ValueStart and ValueEnd bound
	// its value.
	KeyStart, ValueStart, ValueEnd int
}

// EntrySpan is where one server entry sits in a config file: the offsets
// of its value (the object from '{' to past '}') and of its members, so an
// edit can replace those bytes and keep every other one.
type EntrySpan struct {
	Start, End int
	Members    []Member
	// Project is the ~/.claude.json project whose mcpServers hold the
	// entry ("" for the file's own list).
	Project string
}

// Member returns the member a host reads as key: the last one whose key
// is exactly key (JSON.parse keeps the last of a duplicate key, and
// "Command" is not "command"). And whether there is one.
func (e EntrySpan) Member(key string) (Member, bool) { return last(e.Members, key) }

// maxDepth bounds the nesting the span finder follows.
const maxDepth = 512

// errNoEntry says the file holds no entry of that name.
var errNoEntry = errors.New("no such entry")

// IsNoEntry reports whether err says a file holds no entry of the name
// asked for.
func IsNoEntry(err error) bool { return errors.Is(err, errNoEntry) }

// FindEntry locates the server entry name in data, a whole config file of
// format f (a byte order mark, comments and trailing commas allowed where
// the format has them), in the list the host reads (Format.lists), and
// the project of cwd first where the file has projects (a
// ~/.claude.json). Keys are matched exactly, as the hosts do. Offsets are
// into data itself.
func FindEntry(data []byte, f Format, name, cwd string) (EntrySpan, error) {
	bom := 0
	if bytes.HasPrefix(data, byteOrderMark) {
		bom = len(byteOrderMark)
	}
	clean := data[bom:]
	if f.comments() {
		clean = StripJSONC(clean)
	}
	sc := &spanScanner{b: clean, base: bom}
	start := sc.skip(0)
	top, err := sc.object(start, 0)
	if err != nil {
		return EntrySpan{}, err
	}
	if projects, ok := last(top, "projects"); ok {
		keys, err := sc.object(projects.ValueStart-bom, 0)
		if err == nil {
			byKey := map[string]Member{}
			for _, k := range keys {
				byKey[k.Key] = k
			}
			if p := projectOf(byKey, cwd); p != "" {
				if e, err := sc.entryIn(byKey[p], "mcpServers", name); err == nil {
					e.Project = p
					return e, nil
				} else if !IsNoEntry(err) {
					return EntrySpan{}, err
				}
			}
		}
	}
	// The host's own list, else the other one when it is missing or null.
	list, other := f.lists()
	if m, ok := last(top, list); !ok || sc.null(m) {
		list = other
	}
	return sc.entryIn(Member{ValueStart: start + bom}, list, name)
}

// entryIn finds name in the list (an object member) of the object that is
// parent's value.
func (sc *spanScanner) entryIn(parent Member, list, name string) (EntrySpan, error) {
	if sc.null(parent) {
		return EntrySpan{}, errNoEntry
	}
	members, err := sc.object(parent.ValueStart-sc.base, 0)
	if err != nil {
		return EntrySpan{}, err
	}
	l, ok := last(members, list)
	if !ok || sc.null(l) {
		return EntrySpan{}, errNoEntry
	}
	entries, err := sc.object(l.ValueStart-sc.base, 0)
	if err != nil {
		return EntrySpan{}, fmt.Errorf("%q: %w", list, err)
	}
	e, ok := last(entries, name)
	if !ok {
		return EntrySpan{}, errNoEntry
	}
	inner, err := sc.object(e.ValueStart-sc.base, 0)
	if err != nil {
		return EntrySpan{}, fmt.Errorf("server %q: %w", name, err)
	}
	return EntrySpan{Start: e.ValueStart, End: e.ValueEnd, Members: inner}, nil
}

// last returns the last member called exactly key (as JSON.parse, and a
// decoder filling a map, read it).
func last(ms []Member, key string) (Member, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Key == key {
			return ms[i], true
		}
	}
	return Member{}, false
}

// spanScanner walks JSON whose comments are already blanks; offsets it
// reports are shifted by base (the byte order mark).
type spanScanner struct {
	b    []byte
	base int
}

// null reports whether m's value is null (a decoder reads it as absent).
func (sc *spanScanner) null(m Member) bool {
	return m.ValueEnd-m.ValueStart == 4 && string(sc.b[m.ValueStart-sc.base:m.ValueEnd-sc.base]) == "null"
}

// skip returns the index of the first non-blank byte at or after i.
func (sc *spanScanner) skip(i int) int {
	for i < len(sc.b) && (sc.b[i] == ' ' || sc.b[i] == '\t' || sc.b[i] == '\n' || sc.b[i] == '\r') {
		i++
	}
	return i
}

// object reads the members of the object opening at i.
func (sc *spanScanner) object(i, depth int) ([]Member, error) {
	if i >= len(sc.b) || sc.b[i] != '{' {
		return nil, fmt.Errorf("offset %d: not a JSON object", i+sc.base)
	}
	var out []Member
	i = sc.skip(i + 1)
	for {
		if i < len(sc.b) && sc.b[i] == '}' {
			return out, nil
		}
		if i >= len(sc.b) || sc.b[i] != '"' {
			return nil, fmt.Errorf("offset %d: expected a key", i+sc.base)
		}
		end := skipString(sc.b, i) + 1
		var key string
		if err := json.Unmarshal(sc.b[i:end], &key); err != nil {
			return nil, fmt.Errorf("offset %d: %w", i+sc.base, err)
		}
		j := sc.skip(end)
		if j >= len(sc.b) || sc.b[j] != ':' {
			return nil, fmt.Errorf("offset %d: expected ':'", j+sc.base)
		}
		v := sc.skip(j + 1)
		ve, err := sc.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{Key: key, KeyStart: i + sc.base, ValueStart: v + sc.base, ValueEnd: ve + sc.base})
		i = sc.skip(ve)
		if i < len(sc.b) && sc.b[i] == ',' {
			i = sc.skip(i + 1)
		}
	}
}

// value returns the index just past the JSON value that starts at i.
func (sc *spanScanner) value(i, depth int) (int, error) {
	if depth > maxDepth {
		return 0, fmt.Errorf("offset %d: nested deeper than %d", i+sc.base, maxDepth)
	}
	if i >= len(sc.b) {
		return 0, fmt.Errorf("offset %d: expected a value", i+sc.base)
	}
	switch sc.b[i] {
	case '"':
		end := skipString(sc.b, i)
		if sc.b[end] != '"' || end == i {
			return 0, fmt.Errorf("offset %d: unterminated string", i+sc.base)
		}
		return end + 1, nil
	case '{', '[':
		closer := byte('}')
		if sc.b[i] == '[' {
			closer = ']'
		}
		j := sc.skip(i + 1)
		for {
			if j < len(sc.b) && sc.b[j] == closer {
				return j + 1, nil
			}
			if closer == '}' {
				if j >= len(sc.b) || sc.b[j] != '"' {
					return 0, fmt.Errorf("offset %d: expected a key", j+sc.base)
				}
				end := skipString(sc.b, j)
				if sc.b[end] != '"' || end == j {
					return 0, fmt.Errorf("offset %d: unterminated string", j+sc.base)
				}
				j = sc.skip(end + 1)
				if j >= len(sc.b) || sc.b[j] != ':' {
					return 0, fmt.Errorf("offset %d: expected ':'", j+sc.base)
				}
				j = sc.skip(j + 1)
			}
			end, err := sc.value(j, depth+1)
			if err != nil {
				return 0, err
			}
			j = sc.skip(end)
			switch {
			case j < len(sc.b) && sc.b[j] == ',':
				j = sc.skip(j + 1)
			case j < len(sc.b) && sc.b[j] == closer:
			default:
				return 0, fmt.Errorf("offset %d: expected ',' or %q", j+sc.base, closer)
			}
		}
	}
	j := i
	for j < len(sc.b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(sc.b[j])) {
		j++
	}
	if j == i {
		return 0, fmt.Errorf("offset %d: expected a value", i+sc.base)
	}
	return j, nil
}
