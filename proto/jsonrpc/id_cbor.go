package jsonrpc

import "fmt"

// MarshalCBOR writes the id as a CBOR integer, text string or null, so that
// an integer id stays an integer in CBOR.
func (id ID) MarshalCBOR() ([]byte, error) { return id.appendCBOR(nil), nil }

// appendCBOR appends the id as a CBOR integer, text string or null.
func (id ID) appendCBOR(dst []byte) []byte {
	switch id.kind {
	case idInt:
		return appendCBORInt(dst, id.num)
	case idString:
		return appendCBORString(dst, id.str)
	}
	return append(dst, cborSimple<<5|22)
}

// UnmarshalCBOR reads a CBOR integer, text string or null (undefined counts
// as null), with the same rules as UnmarshalJSON.
func (id *ID) UnmarshalCBOR(b []byte) error {
	j, err := CBORToJSON(b)
	if err != nil {
		return fmt.Errorf("id: %w", err)
	}
	return id.UnmarshalJSON(j)
}
