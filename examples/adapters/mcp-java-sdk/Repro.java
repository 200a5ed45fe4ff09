// One tool-conformance case against the MCP Java SDK (Maven io.modelcontextprotocol.sdk:mcp) over
// MCP, as the harness runs it: the Server class of this folder (the tool built with
// McpSchema.Tool.Builder.inputSchema from the schema's JSON text, served by McpServer.sync on stdio)
// started with a one-tool manifest, then initialize and tools/call written to it as JSON-RPC lines,
// the arguments exactly as below. What the tool's handler received is read from the record Server
// keeps. From this folder, after run-frameworks.sh installed it, with this text saved as
// /tmp/Repro.java (the case is read back from the file java runs):
//
//   java -cp 'target/classes:target/lib/*' /tmp/Repro.java
//
// The case (JSON in printable ASCII; read from this file's own text, since Java would decode the
// unicode escapes of a string literal before parsing it):
//> tool: __TOOL__
//> schema: __SCHEMA__
//> arguments: __ARGUMENTS__
import com.fasterxml.jackson.databind.JsonNode;
import io.github.toolconformance.adapter.Json;
import io.github.toolconformance.adapter.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Repro {
  static String line(List<String> source, String key) {
    return source.stream().filter(l -> l.startsWith("//> " + key + ": ")).findFirst().orElseThrow()
        .substring(("//> " + key + ": ").length());
  }

  public static void main(String[] args) throws Exception {
    List<String> source = Files.readAllLines(Path.of(System.getProperty("jdk.launcher.sourcefile", "Repro.java")));
    String name = line(source, "tool"), schema = line(source, "schema"), arguments = line(source, "arguments");
    Path folder = Files.createTempDirectory("repro");
    Path manifest = folder.resolve("manifest.json"), record = folder.resolve("record.jsonl");
    Files.writeString(manifest, "{\"manifest\":1,\"tools\":[{\"name\":" + Json.write(Json.NODES.textNode(name))
        + ",\"input_schema\":" + schema + "}]}");
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "Server");
    server.environment().put("TOOL_CONFORMANCE_MANIFEST", manifest.toString());
    server.environment().put("TOOL_CONFORMANCE_RECORD", record.toString());
    server.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process = server.start();
    OutputStream in = process.getOutputStream();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String[] requests = {
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"repro\",\"version\":\"0\"}}}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":" + Json.write(Json.NODES.textNode(name))
          + ",\"arguments\":" + arguments + "}}"};
    JsonNode result = null;
    for (String request : requests) {
      in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      if (!request.contains("\"id\"")) continue;
      for (String got; (got = out.readLine()) != null; ) {
        JsonNode message = Json.read(got);
        if (message.has("id") && message.get("id").asInt() == (request.contains("\"id\":2") ? 2 : 1)) {
          result = message;
          break;
        }
      }
    }
    process.destroy();
    boolean ran = false;
    if (Files.exists(record)) {
      for (String got : Files.readAllLines(record)) {
        JsonNode entry = Json.read(got);
        if (entry.has("arguments")) {
          Outcome.received(entry.get("arguments"));
          ran = true;
        } else {
          System.out.println("the record says: " + got);
        }
      }
    }
    if (!ran && result != null) {
      if (result.has("error")) {
        Outcome.callerGot(result.get("error").path("message").asText());
      } else if (result.path("result").path("isError").asBoolean()) {
        StringBuilder text = new StringBuilder();
        for (JsonNode block : result.get("result").path("content")) {
          if (text.length() > 0) text.append('\n');
          text.append(block.path("text").asText());
        }
        Outcome.callerGot(text.toString());
      }
    }
  }
}
