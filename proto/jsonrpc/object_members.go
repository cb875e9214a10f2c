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
