package toolconformance

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testRuntime passes arguments through; a tool named "boom" panics, "refuse" rejects, "skip"
// declines, "bad" hands back a value JSON cannot carry.
type testRuntime struct{ tools map[string]Tool }

func (r *testRuntime) Register(tools []Tool) error {
	r.tools = map[string]Tool{}
	for _, t := range tools {
		r.tools[t.Name] = t
	}
	return nil
}

func (r *testRuntime) Describe(tool, view string) (any, error) { return r.tools[tool].InputSchema, nil }

func (r *testRuntime) Invoke(transport, tool string, arguments json.RawMessage, handler Handler) (any, error) {
	switch tool {
	case "boom":
		var list []int
		_ = list[3]
	case "refuse":
		return map[string]any{"message": "refused"}, nil
	case "skip":
		return nil, Unsupported("no such thing here")
	case "bad":
		handler(map[string]any{"n": 0.0 / zero})
		return nil, nil
	}
	if _, ok := r.tools[tool]; !ok {
		return nil, Failure("no tool named %q is registered", tool)
	}
	handler(arguments)
	return nil, nil
}

var zero = 0.0

func (r *testRuntime) Normalize(schema, arguments json.RawMessage) (any, error) {
	if string(arguments) == `"no"` {
		return nil, Rejected(map[string]any{"message": "not accepted"})
	}
	return arguments, nil
}

func newTestSession() *Session {
	s := NewSession(Implementation{Name: "kit-test", Version: "0.0.1", Rules: []string{"RT-TOOL-8"}, Transports: []string{"direct"}},
		func() Runtime { return &testRuntime{} })
	s.Log = io.Discard
	s.Handle([]byte(`{"cmd":"start","seq":0,"protocol":1}`))
	return s
}

func exchange(t *testing.T, s *Session, request, want string) {
	t.Helper()
	got, _ := s.Handle([]byte(request))
	if string(got) != want {
		t.Errorf("%s\n got %s\nwant %s", request, got, want)
	}
}

func TestStartAnswersTheImplementation(t *testing.T) {
	exchange(t, newTestSession(), `{"cmd":"start","seq":7,"protocol":1}`,
		`{"seq":7,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"go"},"rules":["RT-TOOL-8"],"transports":["direct"]}`)
}

func TestStartSaysWhatHTTPErrorsPointBackWith(t *testing.T) {
	s := NewSession(Implementation{Name: "kit-test", Version: "0.0.1", Rules: []string{"PLAT-162"}, Transports: []string{"http"}, GetAPISpec: "GET /v1/spec"},
		func() Runtime { return &testRuntime{} })
	s.Log = io.Discard
	exchange(t, s, `{"cmd":"start","seq":0,"protocol":1}`,
		`{"seq":0,"protocol":1,"implementation":{"name":"kit-test","version":"0.0.1","language":"go"},"rules":["PLAT-162"],"transports":["http"],"get_api_spec":"GET /v1/spec"}`)
}

func TestNumbersSurrogatesAndKeyOrderPassThroughExactly(t *testing.T) {
	exchange(t, newTestSession(),
		`{"cmd":"normalize","seq":1,"input_schema":{},"arguments":{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\ud800x\ud83d\ude00é","e":1e400}}`,
		`{"seq":1,"arguments":{"z":12345678901234567890123,"a":1.0,"m":-0,"s":"\ud800x😀é","e":1e400}}`)
}

func TestRejectedNormalize(t *testing.T) {
	exchange(t, newTestSession(), `{"cmd":"normalize","seq":2,"input_schema":{},"arguments":"no"}`,
		`{"seq":2,"rejected":{"message":"not accepted"}}`)
}

func TestInvokeOutcomes(t *testing.T) {
	s := newTestSession()
	exchange(t, s, `{"cmd":"register","seq":1,"tools":[{"name":"t","input_schema":{"b":1,"a":2}}]}`, `{"seq":1,"ok":true}`)
	exchange(t, s, `{"cmd":"describe","seq":2,"tool":"t","view":"direct"}`, `{"seq":2,"input_schema":{"b":1,"a":2}}`)
	exchange(t, s, `{"cmd":"invoke","seq":3,"tool":"t","transport":"direct","arguments":{"x":[1,2.50]}}`,
		`{"seq":3,"outcome":"executed","handler_calls":1,"received":{"x":[1,2.50]}}`)
	exchange(t, s, `{"cmd":"invoke","seq":4,"tool":"refuse","transport":"direct","arguments":{}}`,
		`{"seq":4,"outcome":"rejected","handler_calls":0,"error":{"message":"refused"}}`)
	exchange(t, s, `{"cmd":"invoke","seq":5,"tool":"skip","transport":"direct","arguments":{}}`,
		`{"seq":5,"unsupported":"no such thing here"}`)
	exchange(t, s, `{"cmd":"invoke","seq":6,"tool":"t","transport":"http","arguments":{}}`,
		`{"seq":6,"unsupported":"no transport \"http\""}`)
	exchange(t, s, `{"cmd":"invoke","seq":7,"tool":"nope","transport":"direct","arguments":{}}`,
		`{"seq":7,"error":"no tool named \"nope\" is registered"}`)
	got, _ := s.Handle([]byte(`{"cmd":"invoke","seq":8,"tool":"bad","transport":"direct","arguments":{}}`))
	if !strings.Contains(string(got), `"error":"the tool received a value JSON cannot carry`) {
		t.Errorf("a NaN received: %s", got)
	}
	exchange(t, s, `{"cmd":"frobnicate","seq":9}`, `{"seq":9,"unsupported":"no command \"frobnicate\""}`)
	got, stop := s.Handle([]byte(`{"cmd":"stop","seq":10}`))
	if string(got) != `{"seq":10,"ok":true}` || !stop {
		t.Errorf("stop: %s %v", got, stop)
	}
}

func TestAPanicIsAnsweredWithItsStackAndTheSessionGoesOn(t *testing.T) {
	s := newTestSession()
	var log bytes.Buffer
	s.Log = &log
	got, _ := s.Handle([]byte(`{"cmd":"invoke","seq":1,"tool":"boom","transport":"direct","arguments":{}}`))
	var answer struct{ Error string }
	if err := json.Unmarshal(got, &answer); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(answer.Error, "the adapter failed: runtime.boundsError: runtime error: index out of range [3] with length 0\n") ||
		!strings.Contains(answer.Error, "adapter_test.go:") || !strings.Contains(log.String(), answer.Error) {
		t.Errorf("the reason: %q\nthe log: %q", answer.Error, log.String())
	}
	exchange(t, s, `{"cmd":"normalize","seq":2,"input_schema":{},"arguments":1}`, `{"seq":2,"arguments":1}`)
}

func TestARequestThatIsNotJSONIsAnsweredWithANullSeq(t *testing.T) {
	exchange(t, newTestSession(), `{"cmd":`, `{"seq":null,"error":"the request is not JSON: not JSON: the end of the text where a value was expected at byte 7"}`)
	exchange(t, newTestSession(), `[1]`, `{"seq":null,"error":"the request is not a JSON object"}`)
}

func TestParseRefusesWhatIsNotJSON(t *testing.T) {
	for _, text := range []string{`01`, `1.`, `-`, `NaN`, `"a`, "\"\x01\"", `{"a" 1}`, `[1,]`, `{} x`, "\"\xff\"", `"\x"`} {
		if _, err := Parse([]byte(text)); err == nil {
			t.Errorf("%q parsed", text)
		}
	}
}

func TestMarshalWritesGoValues(t *testing.T) {
	got, err := Marshal(map[string]any{"b": []any{int64(-3), 2.5, float32(0.1), nil, true}, "a": json.Number("1E+2"),
		"c": struct {
			N json.Number `json:"n"`
		}{"7.0"}})
	if err != nil || string(got) != `{"a":1E+2,"b":[-3,2.5,0.1,null,true],"c":{"n":7.0}}` {
		t.Errorf("%s %v", got, err)
	}
	for _, bad := range []any{json.Number("1x"), zero / zero, json.RawMessage(`{`)} {
		if _, err := Marshal(bad); err == nil {
			t.Errorf("%v marshalled", bad)
		}
	}
}

func TestJSONTextIsPrintableASCII(t *testing.T) {
	value, _ := Parse([]byte(`{"a\"b\\c\n":"\u001bé\u202e😀` + "`" + `</x> it's $1\u007f\udc00","n":12345678901234567890.10}`))
	got, _ := JSONText(value)
	want := `{"a\"b\\c\n":"\u001b\u00e9\u202e\ud83d\ude00\u0060</x> it\u0027s \u00241\u007f\udc00","n":12345678901234567890.10}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	filled, _ := FillTemplate("t=__TOOL__ s=`__SCHEMA__` a=`__ARGUMENTS__`", "x", json.RawMessage(`{"type":"object"}`), value)
	if filled != "t=x s=`{\"type\":\"object\"}` a=`"+want+"`" {
		t.Errorf("filled: %s", filled)
	}
}

func TestManifestRecordAndRefusal(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	os.WriteFile(manifest, []byte(`{"manifest":1,"tools":[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"n":{"maximum":1.50}}}},{"name":"u","input_schema":true}]}`), 0o644)
	tools, err := LoadManifest(manifest)
	if err != nil || len(tools) != 2 || tools[0].Name != "t" || !tools[0].HasDescription || tools[1].HasDescription ||
		string(tools[0].InputSchema) != `{"type":"object","properties":{"n":{"maximum":1.50}}}` || string(tools[1].InputSchema) != "true" {
		t.Fatalf("%+v %v", tools, err)
	}
	for _, bad := range []string{`{"tools":[]}`, `{"manifest":1,"tools":[{"name":"t"}]}`, `{"manifest":1,"tools":[{"name":"t","input_schema":{}},{"name":"t","input_schema":{}}]}`} {
		os.WriteFile(manifest, []byte(bad), 0o644)
		if _, err := LoadManifest(manifest); err == nil || !strings.HasPrefix(err.Error(), manifest) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	record := filepath.Join(dir, "record")
	t.Setenv(RecordVariable, record)
	if err := Refuse("u", "Server.AddTool refused the schema: boom"); err != nil {
		t.Fatal(err)
	}
	Record("t", json.RawMessage(`{"n":1.50,"s":"\ud800"}`))
	Record("t", map[string]any{"n": zero / zero})
	got, _ := os.ReadFile(record)
	want := `{"tool":"u","refused":"Server.AddTool refused the schema: boom"}` + "\n" +
		`{"tool":"t","arguments":{"n":1.50,"s":"\ud800"}}` + "\n" +
		`{"tool":"t","not_json":"map[string]interface {}{\"n\":NaN} (Go %#v syntax; not JSON: NaN is not JSON)"}` + "\n"
	if string(got) != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestServeStdioAnswersLineByLineUntilStop(t *testing.T) {
	s := newTestSession()
	in := strings.NewReader("{\"cmd\":\"start\",\"seq\":0,\"protocol\":1}\n\n{\"cmd\":\"stop\",\"seq\":1}\r\n{\"cmd\":\"start\",\"seq\":2,\"protocol\":1}\n")
	var out bytes.Buffer
	if err := s.ServeStdio(in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || lines[1] != `{"seq":1,"ok":true}` {
		t.Errorf("%q", out.String())
	}
}

func TestServeHTTP(t *testing.T) {
	server := httptest.NewServer(newTestSession())
	defer server.Close()
	response, err := http.Post(server.URL, "application/json", strings.NewReader(`{"cmd":"normalize","seq":3,"input_schema":{},"arguments":[1.10]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(response.Body)
	if response.StatusCode != 200 || string(body) != `{"seq":3,"arguments":[1.10]}` {
		t.Errorf("%d %s", response.StatusCode, body)
	}
	response, _ = http.Get(server.URL)
	if response.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", response.StatusCode)
	}
	response, _ = http.Post(server.URL, "application/json", strings.NewReader(`{`))
	if response.StatusCode != http.StatusBadRequest {
		t.Errorf("not JSON: %d", response.StatusCode)
	}
}
