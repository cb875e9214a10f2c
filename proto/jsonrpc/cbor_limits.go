package jsonrpc

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Limits on a CBOR body, so that hostile input cannot exhaust the stack or
// memory. JSONToCBOR refuses to write what CBORToJSON would refuse.
const (
	CBORMaxNestedLevels  = 128     // arrays, maps and tags nested in one another
	CBORMaxArrayElements = 1 << 20 // elements of one array
	CBORMaxMapPairs      = 1 << 20 // key-value pairs of one map
)

// Facts about a CBOR body that break the rules of a JSON-RPC body although
// its data may be readable; the decoding errors wrap them, so that a caller
// can tell them apart with errors.Is.
var (
	// ErrCBORTrailingBytes: bytes follow the one data item of the body.
	ErrCBORTrailingBytes = errors.New("CBOR body has trailing bytes after its data item")
	// ErrCBORDuplicateKey: a message map (or its error map) holds a key twice.
	ErrCBORDuplicateKey = errors.New("CBOR message map has a duplicate key")
	// ErrCBORTooDeep: arrays, maps and tags nest deeper than CBORMaxNestedLevels.
	ErrCBORTooDeep = errors.New("nests deeper than " + strconv.Itoa(CBORMaxNestedLevels) + " levels")
)

// errCBOREmpty is the error of an empty body.
var errCBOREmpty = errors.New("CBOR body is empty")

// cborBodyError phrases an error of the walk over a body of n bytes: a
// truncation or a syntax error names the body, other errors (limits, keys
// that are not text, invalid UTF-8) already say what they are.
func cborBodyError(n int, err error) error {
	var syntax *cborSyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("CBOR body of %d bytes is truncated: %w", n, err)
	case errors.As(err, &syntax):
		return fmt.Errorf("CBOR body is malformed: %w", err)
	}
	return err
}

// cborTrailing returns the error of a body whose item ends at end, or nil
// when the item fills it.
func cborTrailing(body []byte, end int) error {
	if end == len(body) {
		return nil
	}
	return fmt.Errorf("%w: %d bytes from offset %d", ErrCBORTrailingBytes, len(body)-end, end)
}

// cborTooDeep is the error of an array, map or tag at off that would nest
// past the limit.
func cborTooDeep(off int) error {
	return fmt.Errorf("CBOR item at offset %d %w", off, ErrCBORTooDeep)
}

// cborCountLimit is the error of an array or map at off that declares or
// holds more members than the limit.
func cborCountLimit(major byte, off int) error {
	if major == cborMap {
		return fmt.Errorf("CBOR map at offset %d has more than %d pairs", off, CBORMaxMapPairs)
	}
	return fmt.Errorf("CBOR array at offset %d has more than %d elements", off, CBORMaxArrayElements)
}

// cborMaxMembers is the most members an array or map may hold.
func cborMaxMembers(major byte) uint64 {
	if major == cborMap {
		return CBORMaxMapPairs
	}
	return CBORMaxArrayElements
}
