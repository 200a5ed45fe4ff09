package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Protocol v1 of the tool-conformance harness (docs/protocol.md), for runtimes written in Java:
 * line framing on stdio, HTTP serving, {@code seq}, error answers, lone surrogates and exact
 * numbers.
 *
 * <pre>{@code
 * public static void main(String[] args) throws Exception {
 *   Adapter.main(new Implementation("my-runtime", "1.0.0", List.of("PLAT-162"), List.of("direct")),
 *       MyRuntime::new, args); // stdio; `--http [HOST:]PORT` serves HTTP and prints the URL
 * }
 * }</pre>
 */
public final class Adapter {
  private Adapter() {}

  /** The largest HTTP body read (4 MiB). */
  public static final int MAX_BODY = 4 * 1024 * 1024;

  /** Parses the command line ({@code --http [HOST:]PORT}, or stdio by default) and serves. */
  public static void main(Implementation implementation, Supplier<? extends RuntimeAdapter> newRuntime, String[] args)
      throws IOException {
    Session session = new Session(implementation, newRuntime);
    if (args.length == 2 && args[0].equals("--http")) {
      serveHttp(session, args[1]);
    } else if (args.length == 0) {
      serveStdio(session, System.in);
    } else {
      System.err.println("usage: [--http [HOST:]PORT]   (stdio by default)");
      System.exit(2);
    }
  }

  /**
   * One JSON object per line on stdin, one per line back on stdout, until {@code stop}. stdout
   * carries protocol lines only: responses go to the process's standard output, while {@link
   * System#out} is pointed at stderr, so a print or a log line anywhere in the runtime cannot
   * corrupt the stream.
   */
  public static void serveStdio(Session session, InputStream in) throws IOException {
    OutputStream out = new FileOutputStream(FileDescriptor.out);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
    serve(session, in, out);
  }

  /** The stdio loop over any streams (the kit's tests use it). */
  public static void serve(Session session, InputStream in, OutputStream out) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = lines.readLine()) != null; ) {
      if (line.isBlank()) continue;
      Session.Answer answer;
      try {
        answer = session.handle(Json.read(line));
      } catch (IllegalArgumentException why) {
        answer = new Session.Answer(Session.error(null, "the request is not JSON: " + why.getMessage()), false);
      }
      out.write((Json.write(answer.response()) + "\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      if (answer.stop()) return;
    }
  }

  /** Serves the session over HTTP on {@code address} ([HOST:]PORT) and prints the URL it serves. */
  public static HttpServer serveHttp(Session session, String address) throws IOException {
    // Headers and body go out in two writes: without this, each answer waits for a delayed ACK.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    int colon = address.lastIndexOf(':');
    String host = colon < 0 || colon == 0 ? "127.0.0.1" : address.substring(0, colon);
    int port = Integer.parseInt(address.substring(colon + 1));
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 64);
    server.createContext("/", exchange -> answerHttp(session, exchange));
    server.setExecutor(Executors.newCachedThreadPool(job -> {
      Thread thread = new Thread(job, "tool-conformance-http");
      thread.setDaemon(false);
      return thread;
    }));
    server.start();
    InetSocketAddress bound = server.getAddress();
    System.out.println("listening on http://" + bound.getAddress().getHostAddress() + ":" + bound.getPort() + "/");
    System.out.flush();
    return server;
  }

  private static void answerHttp(Session session, HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")) {
        send(exchange, 405, Session.error(null, "POST one protocol v1 request as the body"));
        return;
      }
      String length = exchange.getRequestHeaders().getFirst("Content-Length");
      if (length == null || !length.matches("[0-9]+")) {
        send(exchange, 411, Session.error(null, "a Content-Length is required"));
        return;
      }
      if (Long.parseLong(length) > MAX_BODY) {
        send(exchange, 413, Session.error(null, "the body is longer than " + MAX_BODY + " bytes"));
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      JsonNode request;
      try {
        request = Json.read(new String(body, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException why) {
        send(exchange, 400, Session.error(null, "the body is not JSON: " + why.getMessage()));
        return;
      }
      send(exchange, 200, session.handle(request).response());
    }
  }

  private static void send(HttpExchange exchange, int status, JsonNode value) throws IOException {
    byte[] body = Json.write(value).getBytes(StandardCharsets.US_ASCII);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
