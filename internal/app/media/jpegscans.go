package media

import "fmt"

// MaxJPEGScans bounds the scans (SOS segments) of a JPEG Decode accepts.
// A progressive JPEG's decoder walks every block of the picture on each
// scan, so a small file of thousands of scans costs seconds; encoders
// write at most a dozen or so.
const MaxJPEGScans = 64

// jpegScans counts the SOS segments of a JPEG by walking its markers,
// stopping once it passes limit; what it cannot walk counts as it
// stands (the decoder reports the damage).
func jpegScans(data []byte, limit int) int {
	scans := 0
	i := 2 // past SOI
	for i+1 < len(data) && scans <= limit {
		if data[i] != 0xFF {
			i++ // entropy-coded data
			continue
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0x00 || (m >= 0xD0 && m <= 0xD7) || m == 0x01: // stuffed byte, restart, TEM
			i += 2
			continue
		case m == 0xD9: // EOI
			return scans
		}
		if i+3 >= len(data) {
			return scans
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if m == 0xDA {
			scans++
		}
		i += 2 + n
	}
	return scans
}

// checkJPEG refuses a JPEG of more than MaxJPEGScans scans.
func (i ImageInfo) checkJPEG(data []byte) error {
	if i.Format != "jpeg" {
		return nil
	}
	if n := jpegScans(data, MaxJPEGScans); n > MaxJPEGScans {
		return fmt.Errorf("%s: %w (over %d scans)", i, ErrTooLarge, MaxJPEGScans)
	}
	return nil
}
