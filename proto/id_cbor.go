package proto

import "fmt"

// MarshalCBOR writes the id as a CBOR integer, text string or null, so that
// an integer id stays an integer in CBOR.
func (id ID) MarshalCBOR() ([]byte, error) {
	switch id.kind {
	case idInt:
		return appendCBORInt(nil, id.num), nil
	case idString:
		return appendCBORText(nil, id.str), nil
	}
	return []byte{cborSimple<<5 | 22}, nil
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
