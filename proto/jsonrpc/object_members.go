package jsonrpc

// ObjectMembers returns the members of the JSON object b holds, in order,
// each value as written (neither decoded nor copied), as far as they are
// complete. ok says the object is whole and well formed around its values
// (which it does not validate). The values are skipped with a byte scan
// that allocates nothing for them, so a member of megabytes costs one pass
// over its bytes: what reads a few small members of a big object without
// decoding the rest.
func ObjectMembers(b []byte) (members []Member, ok bool) {
	sc := scanObject(b)
	members = make([]Member, 0, len(sc.members))
	for _, m := range sc.members {
		if m.value != nil {
			members = append(members, Member{Key: string(m.name), Value: m.value})
		}
	}
	return members, sc.status == scanOK && sc.trailing(b) < 0
}

// ArrayItems calls each with the items of the JSON array b holds, in order,
// each as written (neither decoded nor copied), until each returns false.
// ok says the array is whole and well formed around its items (which it
// does not validate). Nothing is allocated per item, so an array of
// millions costs one pass over its bytes: what keeps the first few items of
// a huge array and counts the rest.
func ArrayItems(b []byte, each func(item []byte) bool) (ok bool) {
	s := scanner{b: b}
	if !s.open('[') {
		return false
	}
	if s.empty(']') {
		return s.trailingSpace()
	}
	for {
		s.ws()
		from := s.i
		if s.value(2) != scanOK {
			return false
		}
		if !each(s.b[from:s.i]) {
			return true
		}
		done, st := s.next(']')
		if st != scanOK {
			return false
		}
		if done {
			return s.trailingSpace()
		}
	}
}

// trailingSpace reports whether only white space follows s.i.
func (s *scanner) trailingSpace() bool {
	s.ws()
	return s.i == len(s.b)
}
