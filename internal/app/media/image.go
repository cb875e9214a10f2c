package media

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // GIF content
	_ "image/jpeg" // JPEG content
	"image/png"    // PNG content

	"github.com/dustin/go-humanize"
)

// Bounds of the images Decode accepts: past them an image is described,
// never decoded, so one content block costs at most MaxPixels×8 bytes of
// memory (64 MiB, a 16-bit RGBA image) and, with MaxJPEGScans, time in
// proportion to its pixels. Pictures are scaled to the cells they are
// shown in before anything is drawn or sent to a terminal.
const (
	MaxImageBytes = 16 << 20 // encoded (PNG, JPEG, GIF) bytes
	MaxPixels     = 8 << 20  // width × height
)

// ErrTooLarge is why an image past the bounds is not decoded.
var ErrTooLarge = errors.New("too large to preview")

// ImageInfo is what an image's header says: its format ("png", "jpeg",
// "gif") and size in pixels.
type ImageInfo struct {
	Format        string
	Width, Height int
}

// String is "20×20 png".
func (i ImageInfo) String() string { return fmt.Sprintf("%d×%d %s", i.Width, i.Height, i.Format) }

// ReadImageInfo reads an image's header only.
func ReadImageInfo(data []byte) (ImageInfo, error) {
	if len(data) == 0 {
		return ImageInfo{}, errors.New("no image data")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return ImageInfo{}, fmt.Errorf("not an image mcpscope reads (PNG, JPEG, GIF): %w", err)
	}
	return ImageInfo{Format: format, Width: cfg.Width, Height: cfg.Height}, nil
}

// Decode decodes an image after checking its header against the bounds:
// an image over MaxImageBytes encoded or MaxPixels in area, with a side
// of 0, or a JPEG of over MaxJPEGScans scans, is refused before a pixel
// is read.
func Decode(data []byte) (image.Image, ImageInfo, error) {
	info, err := ReadImageInfo(data)
	if err != nil {
		return nil, info, err
	}
	if err := info.check(len(data)); err != nil {
		return nil, info, err
	}
	if err := info.checkJPEG(data); err != nil {
		return nil, info, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if _, bad := err.(png.FormatError); bad {
		if fixed, ok := withPNGChecksums(data); ok {
			img, _, err = image.Decode(bytes.NewReader(fixed))
		}
	}
	if err != nil {
		return nil, info, fmt.Errorf("%s image: %w", info.Format, err)
	}
	return img, info, nil
}

// check says why an image of this header and encoded size is not decoded.
func (i ImageInfo) check(size int) error {
	switch {
	case i.Width <= 0 || i.Height <= 0:
		return fmt.Errorf("%s says it is empty", i)
	case size > MaxImageBytes:
		return fmt.Errorf("%s of %s: %w (at most %s)", i, humanize.IBytes(uint64(size)), ErrTooLarge, humanize.IBytes(MaxImageBytes))
	case int64(i.Width)*int64(i.Height) > MaxPixels:
		return fmt.Errorf("%s: %w (at most %d megapixels)", i, ErrTooLarge, MaxPixels>>20)
	}
	return nil
}
