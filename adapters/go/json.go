package toolconformance

// Exact JSON: the values the harness sends, read and written back with every digit, every key in
// its order and every lone surrogate kept (docs/protocol.md, "Exact numbers").
//
// Parse reads RFC 8259 JSON into these Go values:
//
//	null -> nil, true/false -> bool, a number -> json.Number (its literal, as written),
//	a string -> string, an array -> []any, an object -> Object (its members in order).
//
// A lone surrogate escape ("\ud800") cannot be a Go rune; Parse keeps it as the three bytes
// WTF-8 gives it (ED A0 80), which Marshal writes back as the same escape. Marshal writes any of
// these values, and the usual Go ones (ints, floats by their shortest form, map[string]any with
// its keys sorted as encoding/json sorts them, json.RawMessage as the exact JSON it holds, and
// anything else through encoding/json), compact.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Member is one key and its value in an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object with its members in the order they were written.
type Object []Member

// Get returns the value of the first member named key, and whether there is one.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Keys returns the keys in their order.
func (o Object) Keys() []string {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.Key
	}
	return keys
}

// MarshalJSON writes the object with its keys in order (exactly, as Marshal does).
func (o Object) MarshalJSON() ([]byte, error) { return Marshal(o) }

// maxDepth bounds the nesting Parse accepts.
const maxDepth = 10000

// Parse reads one JSON value (surrounding whitespace allowed, nothing else after it).
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, p.fail("text after the JSON value")
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) fail(what string) error {
	return fmt.Errorf("not JSON: %s at byte %d", what, p.pos)
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) literal(word string, v any) (any, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.fail("an unexpected character")
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, p.fail("nesting too deep")
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("the end of the text where a value was expected")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		obj := Object{}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return obj, nil
		}
		for {
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, p.fail("an object key that is not a string")
			}
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, p.fail("no ':' after an object key")
			}
			p.pos++
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj = append(obj, Member{key, v})
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				p.pos++
				return obj, nil
			}
			return nil, p.fail("neither ',' nor '}' after an object member")
		}
	case c == '[':
		p.pos++
		arr := []any{}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return arr, nil
		}
		for {
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.data) && p.data[p.pos] == ']' {
				p.pos++
				return arr, nil
			}
			return nil, p.fail("neither ',' nor ']' after an array item")
		}
	case c == '"':
		return p.str()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		end := numberEnd(p.data, p.pos)
		if end < 0 {
			return nil, p.fail("a malformed number")
		}
		n := json.Number(p.data[p.pos:end])
		p.pos = end
		return n, nil
	default:
		return nil, p.fail("an unexpected character")
	}
}

// numberEnd is where the JSON number starting at start ends, or -1 when it is malformed.
func numberEnd(data []byte, start int) int {
	i := start
	digits := func() int {
		n := 0
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if digits() == 0 {
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

// ValidNumber reports whether s is a JSON number literal.
func ValidNumber(s string) bool {
	return s != "" && numberEnd([]byte(s), 0) == len(s)
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}

// wtf8 is the three bytes a lone surrogate is kept as inside a Go string.
func wtf8(r rune) []byte {
	return []byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F}
}

func (p *parser) str() (string, error) {
	p.pos++ // the opening quote
	var out []byte
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("an unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out), nil
		case c < 0x20:
			return "", p.fail("a control character in a string")
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.fail("an unterminated string")
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(p.data[p.pos:])
				if !ok {
					return "", p.fail("a malformed \\u escape")
				}
				p.pos += 4
				if utf16.IsSurrogate(r) && r < 0xDC00 && bytes.HasPrefix(p.data[p.pos:], []byte(`\u`)) {
					if low, ok := hex4(p.data[p.pos+2:]); ok && low >= 0xDC00 && low <= 0xDFFF {
						p.pos += 6
						out = utf8.AppendRune(out, utf16.DecodeRune(r, low))
						continue
					}
				}
				if utf16.IsSurrogate(r) {
					out = append(out, wtf8(r)...)
				} else {
					out = utf8.AppendRune(out, r)
				}
			default:
				return "", p.fail("a malformed escape")
			}
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("text that is not UTF-8")
			}
			out = append(out, p.data[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
}

// Marshal writes a value as compact JSON, exactly (see the package's JSON notes): UTF-8, with a
// lone surrogate as its escape. NaN, an infinity and a json.Number that is no JSON number are
// errors.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := write(&buf, v, false, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// JSONText is the compact JSON text of v in printable ASCII, every other character and every
// `'`, backtick and `$` written as a \uXXXX escape (UTF-16 code units): what the harness puts in
// place of __SCHEMA__ and __ARGUMENTS__ in a reproduction template, and what the record holds.
func JSONText(v any) (string, error) {
	var buf bytes.Buffer
	if err := write(&buf, v, true, 0); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// MustJSON is Marshal's text, for values known to be JSON; it panics otherwise.
func MustJSON(v any) json.RawMessage {
	b, err := Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func writeString(buf *bytes.Buffer, s string, ascii bool) {
	const hexdigits = "0123456789abcdef"
	unit := func(u rune) {
		buf.WriteString(`\u`)
		buf.WriteByte(hexdigits[u>>12&0xF])
		buf.WriteByte(hexdigits[u>>8&0xF])
		buf.WriteByte(hexdigits[u>>4&0xF])
		buf.WriteByte(hexdigits[u&0xF])
	}
	buf.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				buf.WriteString(`\"`)
			case c == '\\':
				buf.WriteString(`\\`)
			case c == '\n':
				buf.WriteString(`\n`)
			case c == '\r':
				buf.WriteString(`\r`)
			case c == '\t':
				buf.WriteString(`\t`)
			case c < 0x20 || c == 0x7F && ascii:
				unit(rune(c))
			case ascii && (c == '\'' || c == '`' || c == '$'):
				unit(rune(c))
			default:
				buf.WriteByte(c)
			}
			i++
			continue
		}
		// A lone surrogate kept as WTF-8: ED A0..BF 80..BF.
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			unit(rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			unit(0xFFFD) // a byte that is no UTF-8 at all
		} else if ascii {
			if r > 0xFFFF {
				hi, lo := utf16.EncodeRune(r)
				unit(hi)
				unit(lo)
			} else {
				unit(r)
			}
		} else {
			buf.WriteString(s[i : i+size])
		}
		i += size
	}
	buf.WriteByte('"')
}

func writeFloat(buf *bytes.Buffer, f float64, bits int) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%v is not JSON", f)
	}
	b, err := json.Marshal(f)
	if bits == 32 {
		b, err = json.Marshal(float32(f))
	}
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

func write(buf *bytes.Buffer, v any, ascii bool, depth int) error {
	if depth > maxDepth {
		return errors.New("a value nested too deep")
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		if !ValidNumber(string(x)) {
			return fmt.Errorf("json.Number %q is not a JSON number", string(x))
		}
		buf.WriteString(string(x))
	case string:
		writeString(buf, x, ascii)
	case int:
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case int32:
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case uint64:
		buf.WriteString(strconv.FormatUint(x, 10))
	case float64:
		return writeFloat(buf, x, 64)
	case float32:
		return writeFloat(buf, float64(x), 32)
	case json.RawMessage:
		parsed, err := Parse(x)
		if err != nil {
			return fmt.Errorf("a json.RawMessage that is not JSON: %w", err)
		}
		return write(buf, parsed, ascii, depth)
	case Object:
		buf.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, m.Key, ascii)
			buf.WriteByte(':')
			if err := write(buf, m.Value, ascii, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := write(buf, item, ascii, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k, ascii)
			buf.WriteByte(':')
			if err := write(buf, x[k], ascii, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		if rv := reflect.ValueOf(v); (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Map ||
			rv.Kind() == reflect.Slice || rv.Kind() == reflect.Interface) && rv.IsNil() {
			buf.WriteString("null")
			return nil
		}
		// Any other Go value as encoding/json writes it, then read back exactly.
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		parsed, err := Parse(b)
		if err != nil {
			return err
		}
		return write(buf, parsed, ascii, depth)
	}
	return nil
}
