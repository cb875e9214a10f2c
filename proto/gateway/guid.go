package gateway

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// GUID is a 16-byte identifier in canonical RFC 9562 byte order, the order of
// its text form 550e8400-e29b-41d4-a716-446655440000. The gateway's binary
// chunks carry it in .NET byte order instead (see GatewayChunkHeader).
type GUID [16]byte

// NewGUID returns a random (version 4) GUID.
func NewGUID() GUID {
	var g GUID
	_, _ = rand.Read(g[:]) // crypto/rand.Read never fails
	g[6] = g[6]&0x0f | 0x40
	g[8] = g[8]&0x3f | 0x80
	return g
}

// ParseGUID reads the text form: 32 hex digits, grouped 8-4-4-4-12 by
// hyphens or not grouped, optionally in braces, any case.
func ParseGUID(s string) (GUID, error) {
	var g GUID
	t := s
	if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
		t = t[1 : len(t)-1]
	}
	if len(t) == 36 {
		if t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-' {
			return g, fmt.Errorf("GUID %q is not grouped 8-4-4-4-12", s)
		}
		t = t[:8] + t[9:13] + t[14:18] + t[19:23] + t[24:]
	}
	if len(t) != 32 {
		return g, fmt.Errorf("GUID %q does not have 32 hex digits", s)
	}
	if _, err := hex.Decode(g[:], []byte(t)); err != nil {
		return g, fmt.Errorf("GUID %q is not hexadecimal: %w", s, err)
	}
	return g, nil
}

// String renders the GUID in lower case, grouped 8-4-4-4-12.
func (g GUID) String() string {
	var b [36]byte
	hex.Encode(b[0:8], g[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], g[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], g[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], g[8:10])
	b[23] = '-'
	hex.Encode(b[24:], g[10:])
	return string(b[:])
}

// MarshalText writes the text form, so a GUID is a JSON string.
func (g GUID) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads any form ParseGUID accepts.
func (g *GUID) UnmarshalText(b []byte) error {
	v, err := ParseGUID(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// appendDotNet appends the 16 bytes in .NET order (Guid.ToByteArray): the
// first three groups little-endian, the last eight bytes as they are.
func (g GUID) appendDotNet(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, binary.BigEndian.Uint32(g[0:4]))
	dst = binary.LittleEndian.AppendUint16(dst, binary.BigEndian.Uint16(g[4:6]))
	dst = binary.LittleEndian.AppendUint16(dst, binary.BigEndian.Uint16(g[6:8]))
	return append(dst, g[8:]...)
}

// guidFromDotNet reads 16 bytes in .NET order.
func guidFromDotNet(b []byte) GUID {
	var g GUID
	binary.BigEndian.PutUint32(g[0:4], binary.LittleEndian.Uint32(b[0:4]))
	binary.BigEndian.PutUint16(g[4:6], binary.LittleEndian.Uint16(b[4:6]))
	binary.BigEndian.PutUint16(g[6:8], binary.LittleEndian.Uint16(b[6:8]))
	copy(g[8:], b[8:16])
	return g
}

// SwapDotNet returns the GUID whose .NET byte order is g's RFC byte order:
// what a reader of a .NET-order header gets when the sender wrote the
// bytes in RFC order. Applying it twice gives g back.
func (g GUID) SwapDotNet() GUID {
	return guidFromDotNet(g[:])
}
