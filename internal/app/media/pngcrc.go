package media

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// pngSignature opens every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// withPNGChecksums returns a copy of a PNG file with the checksum of each
// chunk recomputed, as browsers and terminals show a PNG whose checksums
// are wrong (the TypeScript reference server's tiny image is one) where
// image/png refuses it; ok is false for data that is no PNG.
func withPNGChecksums(data []byte) ([]byte, bool) {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return nil, false
	}
	out := bytes.Clone(data)
	for rest := out[len(pngSignature):]; len(rest) >= 12; {
		n := binary.BigEndian.Uint32(rest)
		if uint64(n)+12 > uint64(len(rest)) {
			break
		}
		binary.BigEndian.PutUint32(rest[8+n:], crc32.ChecksumIEEE(rest[4:8+n]))
		rest = rest[12+n:]
	}
	return out, true
}
