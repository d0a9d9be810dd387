package stdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// readChunk is the size of the framer's read buffer: lines shorter than
// this are read without any further allocation than the line itself.
const readChunk = 64 << 10

// Frame is one newline-delimited line of input.
type Frame struct {
	// Line is the line without its newline (and without a trailing
	// carriage return). The framer never reuses it.
	Line []byte
	// TooLong, when positive, says the line exceeded the framer's limit:
	// it was read to its end and thrown away, Line is nil, and TooLong is
	// its length in bytes.
	TooLong int64
}

// Framer splits a byte stream into lines of at most limit bytes. A longer
// line is discarded while it is read, so memory stays within the limit
// plus the read buffer however long the line is.
type Framer struct {
	r     *bufio.Reader
	limit int
}

// NewFramer returns a framer over r that keeps lines of up to limit bytes.
func NewFramer(r io.Reader, limit int) *Framer {
	return &Framer{r: bufio.NewReaderSize(r, readChunk), limit: limit}
}

// Next returns the next line. A last line without a newline is returned
// as a line too. It returns io.EOF at the end of input, or the reader's
// error: a read error other than io.EOF means the input is broken.
func (f *Framer) Next() (Frame, error) {
	var (
		line  []byte
		total int64
		over  bool
	)
	for {
		chunk, err := f.r.ReadSlice('\n')
		total += int64(len(chunk))
		if !over {
			body := len(chunk)
			if err == nil {
				body-- // the newline does not count against the limit
			}
			if len(line)+body > f.limit {
				over, line = true, nil
			} else {
				line = appendBounded(line, chunk, f.limit+1)
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if total == 0 {
				return Frame{}, io.EOF
			}
		default:
			return Frame{}, err
		}
		break
	}
	if over {
		return Frame{TooLong: total}, nil
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return Frame{Line: line}, nil
}

// appendBounded appends chunk to buf, growing it by doubling but never
// beyond max bytes of capacity, so a line at the limit costs at most the
// limit (plus the smaller array it outgrew).
func appendBounded(buf, chunk []byte, max int) []byte {
	need := len(buf) + len(chunk)
	if need > cap(buf) {
		size := 2 * cap(buf)
		if size < need {
			size = need
		}
		if size > max {
			size = max
		}
		grown := make([]byte, len(buf), size)
		copy(grown, buf)
		buf = grown
	}
	return append(buf, chunk...)
}
