// Package toolconformance is protocol v1 of the tool-conformance harness (docs/protocol.md) for
// runtimes written in Go, standard library only: line framing on stdio, HTTP serving, seq, error
// answers, lone surrogates and exact numbers. An adapter describes itself, supplies a factory of
// Runtime values, and calls Main:
//
//	toolconformance.Main(toolconformance.Implementation{Name: "my-runtime", Version: "1.0.0",
//		Rules: []string{"RT-TOOL-8", "PLAT-162"}, Transports: []string{"direct"}},
//		func() toolconformance.Runtime { return &myRuntime{} })
//
// It serves stdio by default, and HTTP with `--http [HOST:]PORT` (printing the URL). Schemas and
// arguments reach the runtime as json.RawMessage holding the exact JSON text the harness sent
// (every digit, every key in its order, a lone surrogate as its escape); values the runtime hands
// back (what a tool received, a schema, an error object) are written with Marshal. A method
// returns an Unsupported error for what the runtime does not have (the case is skipped), a
// Failure or any other error for what it could not carry out (the case is an error), and
// Normalize a Rejected error when the runtime refused the arguments before any tool ran. A panic
// is a bug of the adapter: it is answered as an error naming the panic, with the goroutine's stack
// on the following lines, the same is written to stderr, and the adapter keeps serving.
package toolconformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// Implementation is what start answers: the runtime's name and version, and what it claims.
type Implementation struct {
	Name       string
	Version    string
	Language   string // "go" when empty
	Homepage   string // left out when empty
	Rules      []string
	Transports []string
	// GetAPISpec is the words (a name, a URL) the runtime's HTTP errors point callers back to
	// get_api_spec with, when its discovery is not a tool named get_api_spec: the start answer's
	// `get_api_spec` (docs/protocol.md). Left out when empty: the harness looks for "get_api_spec".
	GetAPISpec string
}

// Tool is one tool of a register request.
type Tool struct {
	Name           string
	Description    string
	HasDescription bool
	// InputSchema is the tool's input schema, its exact JSON text.
	InputSchema json.RawMessage
}

// Handler is the tool's recording body: give it what the tool received, each time it runs (any
// value Marshal writes; json.RawMessage passes through exactly).
type Handler func(received any)

// Runtime is the part an adapter writes: each method forwards to the runtime under test. A fresh
// one is made at every start.
type Runtime interface {
	// Register replaces the registry with these tools.
	Register(tools []Tool) error
	// Describe is the input schema the view ("get_api_spec" or "direct") publishes.
	Describe(tool, view string) (any, error)
	// Invoke makes the call as it arrives on transport ("direct", "structured", "http"), giving
	// the tool handler as its body. It returns nil when the call went through to the tool, or
	// the error object the caller got.
	Invoke(transport, tool string, arguments json.RawMessage, handler Handler) (callerGot any, err error)
	// Normalize is the arguments that reach a tool with this input schema; a Rejected error when
	// the runtime refuses them before any tool ran.
	Normalize(inputSchema, arguments json.RawMessage) (any, error)
}

// Closer is a Runtime that wants to know when the session ends (stop).
type Closer interface {
	Close() error
}

// UnsupportedError is answered {"unsupported": why}: the case is skipped.
type UnsupportedError struct{ Why string }

func (e *UnsupportedError) Error() string { return e.Why }

// FailureError is answered {"error": why}: the case is an error.
type FailureError struct{ Why string }

func (e *FailureError) Error() string { return e.Why }

// RejectedError is answered {"rejected": Caller} to normalize: the runtime refused the arguments
// before any tool ran; Caller is the error object the caller got (with at least a "message").
type RejectedError struct{ Caller any }

func (e *RejectedError) Error() string { return "rejected: " + string(MustJSON(e.Caller)) }

// Unsupported is an UnsupportedError with a formatted reason.
func Unsupported(format string, args ...any) error {
	return &UnsupportedError{fmt.Sprintf(format, args...)}
}

// Failure is a FailureError with a formatted reason.
func Failure(format string, args ...any) error { return &FailureError{fmt.Sprintf(format, args...)} }

// Rejected is a RejectedError carrying the error object the caller got.
func Rejected(caller any) error { return &RejectedError{caller} }

// Session is protocol v1: one request in, one response out, in front of one runtime at a time.
type Session struct {
	implementation Implementation
	newRuntime     func() Runtime
	runtime        Runtime
	mu             sync.Mutex
	// Log is where an adapter bug's reason is written (os.Stderr by default).
	Log io.Writer
}

// NewSession is a session of this implementation, making its runtimes with newRuntime.
func NewSession(implementation Implementation, newRuntime func() Runtime) *Session {
	return &Session{implementation: implementation, newRuntime: newRuntime, Log: os.Stderr}
}

// AdapterBug is the reason a panic is answered with: the panic on one line, then the stack.
func AdapterBug(recovered any, stack []byte) string {
	what := fmt.Sprintf("%v", recovered)
	if err, ok := recovered.(error); ok {
		what = err.Error()
	}
	return fmt.Sprintf("the adapter failed: %T: %s\n%s", recovered, what, strings.TrimRight(string(stack), "\n"))
}

// Handle answers one request (the exact JSON text of one request object): the response's JSON
// text, and whether the request was stop.
func (s *Session) Handle(request []byte) (response []byte, stop bool) {
	parsed, err := Parse(request)
	if err != nil {
		return MustJSON(Object{{"seq", nil}, {"error", "the request is not JSON: " + err.Error()}}), false
	}
	req, ok := parsed.(Object)
	if !ok {
		return MustJSON(Object{{"seq", nil}, {"error", "the request is not a JSON object"}}), false
	}
	seq, _ := req.Get("seq")
	cmd, _ := req.Get("cmd")
	answer := s.guarded(req)
	out := append(Object{{"seq", seq}}, answer...)
	text, err := Marshal(out)
	if err != nil {
		text = MustJSON(Object{{"seq", seq}, {"error", "the adapter could not write its answer as JSON: " + err.Error()}})
	}
	return text, cmd == "stop"
}

func (s *Session) guarded(req Object) (answer Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if recovered := recover(); recovered != nil {
			reason := AdapterBug(recovered, debug.Stack())
			if s.Log != nil {
				fmt.Fprintf(s.Log, "[tool-conformance-adapter] %s\n", reason)
			}
			answer = Object{{"error", reason}}
		}
	}()
	answer, err := s.answer(req)
	if err != nil {
		var unsupported *UnsupportedError
		if errors.As(err, &unsupported) {
			return Object{{"unsupported", unsupported.Why}}
		}
		return Object{{"error", err.Error()}}
	}
	// An answer that cannot be written is an error, not a broken line.
	if _, werr := Marshal(answer); werr != nil {
		return Object{{"error", "the adapter could not write its answer as JSON: " + werr.Error()}}
	}
	return answer
}

func field(req Object, name string) (any, error) {
	v, ok := req.Get(name)
	if !ok {
		cmd, _ := req.Get("cmd")
		return nil, Failure("the %v request has no %q", cmd, name)
	}
	return v, nil
}

func stringField(req Object, name string) (string, error) {
	v, err := field(req, name)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		cmd, _ := req.Get("cmd")
		return "", Failure("the %v request has a bad %q", cmd, name)
	}
	return s, nil
}

func rawField(req Object, name string) (json.RawMessage, error) {
	v, err := field(req, name)
	if err != nil {
		return nil, err
	}
	return Marshal(v)
}

func (s *Session) current() Runtime {
	if s.runtime == nil {
		s.runtime = s.newRuntime()
	}
	return s.runtime
}

func (s *Session) describe() Object {
	impl := s.implementation
	language := impl.Language
	if language == "" {
		language = "go"
	}
	described := Object{{"name", impl.Name}, {"version", impl.Version}, {"language", language}}
	if impl.Homepage != "" {
		described = append(described, Member{"homepage", impl.Homepage})
	}
	return described
}

func strings2any(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

func (s *Session) claims(transport string) bool {
	for _, t := range s.implementation.Transports {
		if t == transport {
			return true
		}
	}
	return false
}

func (s *Session) answer(req Object) (Object, error) {
	cmd, _ := req.Get("cmd")
	switch cmd {
	case "start":
		protocol, err := field(req, "protocol")
		if err != nil {
			return nil, err
		}
		if n, ok := protocol.(json.Number); !ok || n != "1" {
			return nil, Failure("this adapter speaks protocol 1")
		}
		s.runtime = s.newRuntime()
		answer := Object{{"protocol", 1}, {"implementation", s.describe()},
			{"rules", strings2any(s.implementation.Rules)}, {"transports", strings2any(s.implementation.Transports)}}
		if s.implementation.GetAPISpec != "" {
			answer = append(answer, Member{"get_api_spec", s.implementation.GetAPISpec})
		}
		return answer, nil
	case "normalize":
		schema, err := rawField(req, "input_schema")
		if err != nil {
			return nil, err
		}
		arguments, err := rawField(req, "arguments")
		if err != nil {
			return nil, err
		}
		normalized, err := s.current().Normalize(schema, arguments)
		var rejected *RejectedError
		if errors.As(err, &rejected) {
			return Object{{"rejected", rejected.Caller}}, nil
		}
		if err != nil {
			return nil, err
		}
		return Object{{"arguments", normalized}}, nil
	case "register":
		v, err := field(req, "tools")
		if err != nil {
			return nil, err
		}
		list, ok := v.([]any)
		if !ok {
			return nil, Failure("the register request has a bad \"tools\"")
		}
		tools := make([]Tool, 0, len(list))
		for i, item := range list {
			obj, ok := item.(Object)
			if !ok {
				return nil, Failure("tools[%d] is not an object", i)
			}
			name, ok := obj.Get("name")
			if _, isString := name.(string); !ok || !isString {
				return nil, Failure("tools[%d] has no name", i)
			}
			tool := Tool{Name: name.(string)}
			if d, ok := obj.Get("description"); ok {
				text, isString := d.(string)
				if !isString {
					return nil, Failure("tools[%d]: description is not a string", i)
				}
				tool.Description, tool.HasDescription = text, true
			}
			if tool.InputSchema, err = rawField(obj, "input_schema"); err != nil {
				return nil, Failure("tools[%d] (%s) has no input_schema", i, tool.Name)
			}
			tools = append(tools, tool)
		}
		if err := s.current().Register(tools); err != nil {
			return nil, err
		}
		return Object{{"ok", true}}, nil
	case "describe":
		view, err := stringField(req, "view")
		if err != nil {
			return nil, err
		}
		if view != "get_api_spec" && view != "direct" {
			return nil, Unsupported("no view %q", view)
		}
		tool, err := stringField(req, "tool")
		if err != nil {
			return nil, err
		}
		schema, err := s.current().Describe(tool, view)
		if err != nil {
			return nil, err
		}
		return Object{{"input_schema", schema}}, nil
	case "invoke":
		transport, err := stringField(req, "transport")
		if err != nil {
			return nil, err
		}
		if !s.claims(transport) {
			return nil, Unsupported("no transport %q", transport)
		}
		tool, err := stringField(req, "tool")
		if err != nil {
			return nil, err
		}
		arguments, err := rawField(req, "arguments")
		if err != nil {
			return nil, err
		}
		var received []json.RawMessage
		var notJSON error
		handler := func(value any) {
			// What the tool received, taken when it ran.
			text, err := Marshal(value)
			if err != nil && notJSON == nil {
				notJSON = err
			}
			received = append(received, text)
		}
		callerGot, err := s.current().Invoke(transport, tool, arguments, handler)
		if err != nil {
			return nil, err
		}
		if notJSON != nil {
			return nil, Failure("the tool received a value JSON cannot carry: %v", notJSON)
		}
		if callerGot != nil {
			if text, err := Marshal(callerGot); err == nil && string(text) == "null" {
				callerGot = nil
			}
		}
		if callerGot == nil {
			if len(received) == 0 {
				return nil, Failure("the call was not rejected, but the handler did not run")
			}
			return Object{{"outcome", "executed"}, {"handler_calls", len(received)}, {"received", received[len(received)-1]}}, nil
		}
		return Object{{"outcome", "rejected"}, {"handler_calls", len(received)}, {"error", callerGot}}, nil
	case "stop":
		closing := s.runtime
		s.runtime = nil
		if closer, ok := closing.(Closer); ok {
			if err := closer.Close(); err != nil {
				return nil, err
			}
		}
		return Object{{"ok", true}}, nil
	}
	return nil, Unsupported("no command %v", string(MustJSON(cmd)))
}

// ServeStdio answers one request per line of in with one line on out, until stop or the end of
// in.
func (s *Session) ServeStdio(in io.Reader, out io.Writer) error {
	reader := bufio.NewReaderSize(in, 1<<16)
	writer := bufio.NewWriter(out)
	for {
		line, err := reader.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			response, stop := s.Handle(line)
			writer.Write(response)
			writer.WriteByte('\n')
			if ferr := writer.Flush(); ferr != nil {
				return ferr
			}
			if stop {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// MaxBody is the largest request body ServeHTTP reads.
const MaxBody = 4 << 20

// ServeHTTP answers one POSTed request per HTTP request, the response object as the body.
func (s *Session) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	send := func(status int, body []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(status)
		w.Write(body)
	}
	refuse := func(status int, why string) {
		w.Header().Set("Connection", "close")
		send(status, MustJSON(Object{{"seq", nil}, {"error", why}}))
	}
	switch {
	case r.Method != http.MethodPost:
		refuse(http.StatusMethodNotAllowed, "POST one protocol v1 request as the body")
	case r.ContentLength < 0:
		refuse(http.StatusLengthRequired, "a Content-Length is required")
	case r.ContentLength > MaxBody:
		refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is longer than %d bytes", MaxBody))
	default:
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody))
		if err != nil {
			refuse(http.StatusBadRequest, "the body could not be read: "+err.Error())
			return
		}
		if _, err := Parse(body); err != nil {
			send(http.StatusBadRequest, MustJSON(Object{{"seq", nil}, {"error", "the body is " + err.Error()}}))
			return
		}
		response, _ := s.Handle(body)
		send(http.StatusOK, response)
	}
}

// ListenHTTP serves the session on address ([HOST:]PORT, host 127.0.0.1 by default) and writes
// `listening on http://HOST:PORT/` to announce once it listens.
func (s *Session) ListenHTTP(address string, announce io.Writer) error {
	if !strings.Contains(address, ":") {
		address = "127.0.0.1:" + address
	} else if strings.HasPrefix(address, ":") {
		address = "127.0.0.1" + address
	}
	listener, err := net.Listen("tcp", address)
	if err != nil {
		return err
	}
	fmt.Fprintf(announce, "listening on http://%s/\n", listener.Addr())
	return http.Serve(listener, s)
}

// Main parses the command line (`--http [HOST:]PORT`, or stdio by default) and serves. Over
// stdio, os.Stdout is pointed at stderr while serving, so that what the runtime prints with fmt
// cannot corrupt the protocol stream; the responses go to the original stdout.
func Main(implementation Implementation, newRuntime func() Runtime) {
	flags := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	address := flags.String("http", "", "serve over HTTP on [HOST:]PORT (default host 127.0.0.1) instead of stdio")
	flags.Parse(os.Args[1:])
	session := NewSession(implementation, newRuntime)
	var err error
	if *address != "" {
		err = session.ListenHTTP(*address, os.Stdout)
	} else {
		out := os.Stdout
		os.Stdout = os.Stderr
		err = session.ServeStdio(os.Stdin, out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "[tool-conformance-adapter]", err)
		os.Exit(1)
	}
}
