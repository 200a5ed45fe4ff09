package io.github.toolconformance.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KitTest {
  /** A runtime that runs every call of a registered tool, except one sending "bad", and throws for "boom". */
  static class Echo implements RuntimeAdapter {
    final List<String> names = new ArrayList<>();

    @Override
    public void register(List<Tool> tools) {
      names.clear();
      tools.forEach(tool -> names.add(tool.name()));
    }

    @Override
    public JsonNode describe(String tool, String view) {
      return Json.read("{\"type\":\"object\"}");
    }

    @Override
    public ObjectNode invoke(String transport, String tool, JsonNode arguments, Handler handler) {
      if (!names.contains(tool)) throw new Failure("no tool named " + tool);
      if (arguments.has("boom")) throw new IllegalStateException("the runtime broke");
      if (arguments.has("bad")) {
        ObjectNode error = Json.object();
        error.put("message", "invalid");
        return error;
      }
      handler.call(arguments);
      return null;
    }

    @Override
    public JsonNode normalize(JsonNode inputSchema, JsonNode arguments) {
      if (arguments.isNull()) throw new Rejected("no arguments");
      return arguments;
    }
  }

  static Session session() {
    return new Session(new Implementation("echo", "1.0", List.of("PLAT-162"), List.of("direct")), Echo::new);
  }

  static String answer(Session session, String request) {
    return Json.write(session.handle(Json.read(request)).response());
  }

  @Test
  void numbersKeysAndSurrogatesComeBackExactly() {
    String text = "{\"z\":1.0,\"a\":12345678901234567890123,\"m\":0.1000000000000000000000001,\"s\":\"\\ud800\\u00e9\",\"e\":-0}";
    JsonNode value = Json.read(text);
    assertEquals(new BigInteger("12345678901234567890123"), value.get("a").bigIntegerValue());
    assertEquals("{\"z\":1.0,\"a\":12345678901234567890123,\"m\":0.1000000000000000000000001,\"s\":\"\\ud800\\u00e9\",\"e\":0}", Json.write(value));
    assertEquals("1E+400", Json.write(Json.read("1e400")));
  }

  @Test
  void notJsonIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Json.read("NaN"));
    assertThrows(IllegalArgumentException.class, () -> Json.read("{} {}"));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Json.NODES.numberNode(Double.NaN)));
    assertThrows(IllegalArgumentException.class, () -> Json.fromJava(Map.of(1, 2)));
  }

  @Test
  void jsonTextIsTheHarnessText() { // the vector of src/report/about.rs
    JsonNode value = Json.read("{\"a\\\"b\\\\c\\n\":\"\\u001b\u00e9\u202e\uD83D\uDE00`</x> it's $1\",\"n\":12345678901234567890.10,\"__proto__\":[true,null]}");
    assertEquals(
        "{\"a\\\"b\\\\c\\n\":\"\\u001b\\u00e9\\u202e\\ud83d\\ude00\\u0060</x> it\\u0027s \\u00241\",\"n\":12345678901234567890.10,\"__proto__\":[true,null]}",
        Template.jsonText(value));
    assertEquals("t(\"t\", {\"n\":1}, [])", Template.fill("__TOOL__(\"__TOOL__\", __SCHEMA__, __ARGUMENTS__)", "t", Json.read("{\"n\":1}"), Json.read("[]")));
  }

  @Test
  void javaValuesConvertBothWays() {
    Map<String, Object> plain = new LinkedHashMap<>();
    plain.put("b", List.of(1, 2.5, "x"));
    plain.put("a", null);
    JsonNode tree = Json.fromJava(plain);
    assertEquals("{\"b\":[1,2.5,\"x\"],\"a\":null}", Json.write(tree));
    assertEquals("{\"b\":[1,2.5,\"x\"],\"a\":null}", Json.write(Json.fromJava(Json.toJava(tree))));
  }

  @Test
  void theInstalledVersionOfAnArtifactIsRead() {
    assertEquals(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString(),
        Implementation.installedVersion("com.fasterxml.jackson.core", "jackson-databind"));
    assertEquals(null, Implementation.installedVersion("no.such", "artifact"));
  }

  @Test
  void startSaysWhatHttpErrorsPointBackWith() {
    Implementation pointing =
        new Implementation("echo", "1.0", List.of("PLAT-162"), List.of("http"), null, null, "GET /v1/spec");
    assertEquals(
        "{\"seq\":0,\"protocol\":1,\"implementation\":{\"name\":\"echo\",\"version\":\"1.0\",\"language\":\"java\"},\"rules\":[\"PLAT-162\"],\"transports\":[\"http\"],\"get_api_spec\":\"GET /v1/spec\"}",
        answer(new Session(pointing, Echo::new), "{\"cmd\":\"start\",\"seq\":0,\"protocol\":1}"));
  }

  @Test
  void aSessionAnswersEachCommand() {
    Session session = session();
    assertEquals(
        "{\"seq\":0,\"protocol\":1,\"implementation\":{\"name\":\"echo\",\"version\":\"1.0\",\"language\":\"java\"},\"rules\":[\"PLAT-162\"],\"transports\":[\"direct\"]}",
        answer(session, "{\"cmd\":\"start\",\"seq\":0,\"protocol\":1}"));
    assertEquals("{\"seq\":1,\"ok\":true}", answer(session, "{\"cmd\":\"register\",\"seq\":1,\"tools\":[{\"name\":\"t\",\"input_schema\":{}}]}"));
    assertEquals(
        "{\"seq\":2,\"outcome\":\"executed\",\"handler_calls\":1,\"received\":{\"n\":1.50,\"big\":12345678901234567890123}}",
        answer(session, "{\"cmd\":\"invoke\",\"seq\":2,\"tool\":\"t\",\"transport\":\"direct\",\"arguments\":{\"n\":1.50,\"big\":12345678901234567890123}}"));
    assertEquals(
        "{\"seq\":3,\"outcome\":\"rejected\",\"handler_calls\":0,\"error\":{\"message\":\"invalid\"}}",
        answer(session, "{\"cmd\":\"invoke\",\"seq\":3,\"tool\":\"t\",\"transport\":\"direct\",\"arguments\":{\"bad\":1}}"));
    assertEquals(
        "{\"seq\":4,\"unsupported\":\"no transport 'http'\"}",
        answer(session, "{\"cmd\":\"invoke\",\"seq\":4,\"tool\":\"t\",\"transport\":\"http\",\"arguments\":{}}"));
    assertEquals("{\"seq\":5,\"error\":\"no tool named u\"}", answer(session, "{\"cmd\":\"invoke\",\"seq\":5,\"tool\":\"u\",\"transport\":\"direct\",\"arguments\":{}}"));
    assertEquals("{\"seq\":6,\"rejected\":{\"message\":\"no arguments\"}}", answer(session, "{\"cmd\":\"normalize\",\"seq\":6,\"input_schema\":{},\"arguments\":null}"));
    assertEquals("{\"seq\":7,\"unsupported\":\"no command 'dance'\"}", answer(session, "{\"cmd\":\"dance\",\"seq\":7}"));
    assertEquals("{\"seq\":8,\"error\":\"the describe request has no 'tool'\"}", answer(session, "{\"cmd\":\"describe\",\"seq\":8,\"view\":\"direct\"}"));
    assertEquals("{\"seq\":null,\"error\":\"the request is not a JSON object\"}", answer(session, "[]"));
  }

  @Test
  void anAdapterBugIsAnsweredWithItsStackTrace() {
    Session session = session();
    answer(session, "{\"cmd\":\"register\",\"seq\":0,\"tools\":[{\"name\":\"t\",\"input_schema\":{}}]}");
    JsonNode response = session.handle(Json.read("{\"cmd\":\"invoke\",\"seq\":1,\"tool\":\"t\",\"transport\":\"direct\",\"arguments\":{\"boom\":1}}")).response();
    String reason = response.get("error").textValue();
    assertTrue(reason.startsWith("the adapter failed: java.lang.IllegalStateException: the runtime broke\n\tat "), reason);
    assertTrue(reason.contains("KitTest$Echo.invoke"), reason);
    assertEquals("{\"seq\":2,\"ok\":true}", answer(session, "{\"cmd\":\"stop\",\"seq\":2}"));
  }

  @Test
  void theStdioLoopAnswersALinePerRequestUntilStop() throws Exception {
    String in = "{\"cmd\":\"start\",\"seq\":0,\"protocol\":1}\n\nnot json\n{\"cmd\":\"stop\",\"seq\":1}\n{\"cmd\":\"start\",\"seq\":2,\"protocol\":1}\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Adapter.serve(session(), new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out);
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertEquals(3, lines.length);
    assertTrue(lines[0].startsWith("{\"seq\":0,\"protocol\":1,"), lines[0]);
    assertTrue(lines[1].startsWith("{\"seq\":null,\"error\":\"the request is not JSON: "), lines[1]);
    assertEquals("{\"seq\":1,\"ok\":true}", lines[2]);
  }

  @Test
  void theManifestIsReadAndTheRecordWritten(@TempDir Path dir) throws Exception {
    Path manifest = dir.resolve("manifest.json");
    Files.writeString(manifest, "{\"manifest\":1,\"tools\":[{\"name\":\"t\",\"description\":\"d\",\"input_schema\":{\"maximum\":1.0}}]}");
    List<Tool> tools = Manifest.load(manifest);
    assertEquals(1, tools.size());
    assertEquals("{\"maximum\":1.0}", Json.write(tools.get(0).inputSchema()));
    Files.writeString(manifest, "{\"tools\":[]}");
    assertThrows(Manifest.ManifestError.class, () -> Manifest.load(manifest));

    Path record = dir.resolve("record.jsonl");
    Map<String, Object> got = new LinkedHashMap<>();
    got.put("n", 12345678901234567890123.0);
    got.put("k", List.of(1L));
    assertEquals("ok", Manifest.record("t", got, record));
    Manifest.refuse("u", "McpServer refused the schema: it's bad", record);
    Manifest.record("t", Map.of("x", Double.NaN), record);
    assertEquals(
        "{\"tool\":\"t\",\"arguments\":{\"n\":1.2345678901234568E22,\"k\":[1]}}\n"
            + "{\"tool\":\"u\",\"refused\":\"McpServer refused the schema: it\\u0027s bad\"}\n"
            + "{\"tool\":\"t\",\"not_json\":\"{x=NaN} (Java String.valueOf; not JSON: IllegalArgumentException: NaN is not JSON)\"}\n",
        Files.readString(record));
    assertFalse(Files.readString(record).contains("'"));
  }
}
