/* c_api_test: the C ABI (bindings/c/include/service_c.h), driven from C.
 *
 * Runs on the backend SERVICE_TEST_BACKEND names, like the store and API
 * suites: "sqlite" (the default; files in a fresh folder) or "postgres" (a
 * fresh schema in the database SERVICE_TEST_POSTGRES_URL names, made with
 * libpq; the build defines SERVICE_C_TEST_HAS_LIBPQ when it links it).
 *
 * Each check prints what it expected and what it got; the program exits
 * non-zero when any check failed. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nanosleep, clock_gettime */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef SERVICE_C_TEST_HAS_LIBPQ
#include <libpq-fe.h>
#endif

#include "service_c.h"

static int failures = 0;

#define CHECK(cond, ...)                                                 \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                      \
      fputc('\n', stderr);                                               \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

/* Like CHECK, but the rest of the current test cannot run without it. */
#define REQUIRE(cond, ...)              \
  do {                                  \
    int before_ = failures;             \
    CHECK(cond, __VA_ARGS__);           \
    if (failures != before_) goto done; \
  } while (0)

static int contains(const char* haystack, size_t len, const char* needle) {
  size_t n = strlen(needle);
  size_t i;
  if (haystack == NULL || n > len) return 0;
  for (i = 0; i + n <= len; ++i) {
    if (memcmp(haystack + i, needle, n) == 0) return 1;
  }
  return 0;
}

static void test_version(void) {
  const char* v = service_version();
  CHECK(v != NULL, "service_version() returned NULL");
  if (v != NULL) {
    CHECK(strcmp(v, SERVICE_VERSION) == 0, "library says \"%s\", header says \"%s\"", v, SERVICE_VERSION);
  }
  CHECK(SERVICE_VERSION_NUMBER ==
            SERVICE_VERSION_MAJOR * 1000000 + SERVICE_VERSION_MINOR * 1000 + SERVICE_VERSION_PATCH,
        "SERVICE_VERSION_NUMBER is %d", SERVICE_VERSION_NUMBER);
}

static void test_null_is_accepted(void) {
  /* Each of these would crash if NULL were not accepted. */
  service_close(NULL);
  service_response_destroy(NULL);
  service_free(NULL);
  CHECK(service_response_status(NULL) == 0, "status of NULL response");
  CHECK(service_response_body(NULL, NULL) == NULL, "body of NULL response");
  CHECK(service_response_header(NULL, "X-Request-Id") == NULL, "header of NULL response");
  CHECK(service_response_header_count(NULL) == 0, "header count of NULL response");
}

static void test_invalid_arguments(void) {
  service_t* svc = (service_t*)1; /* must be overwritten with NULL */
  char* err = NULL;
  service_response_t* res = (service_response_t*)1;
  service_state st;

  st = service_open(NULL, &svc, &err);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "open(NULL url) returned %d", (int)st);
  CHECK(svc == NULL, "open(NULL url) left *out non-NULL");
  CHECK(err != NULL && err[0] != '\0', "open(NULL url) gave no message");
  service_free(err);
  err = NULL;

  st = service_open("sqlite::memory:", NULL, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "open(out=NULL) returned %d", (int)st);

  st = service_handle(NULL, "GET", "/v1/health", NULL, NULL, 0, NULL, 0, &res, &err);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "handle(NULL service) returned %d", (int)st);
  CHECK(res == NULL, "handle(NULL service) left *out non-NULL");
  CHECK(err != NULL, "handle(NULL service) gave no message");
  service_free(err);
}

static void test_invalid_url(void) {
  service_t* svc = NULL;
  char* err = NULL;
  service_state st = service_open("nosuchdb://nowhere", &svc, &err);
  CHECK(st != SERVICE_OK, "open(\"nosuchdb://nowhere\") succeeded");
  CHECK(svc == NULL, "a failed open returned a handle");
  CHECK(err != NULL && err[0] != '\0', "a failed open gave no message");
  if (err != NULL) printf("expected open error: %s\n", err);
  service_free(err);
  service_close(svc);

  /* Errors are optional: no out_error, no crash. */
  svc = NULL;
  st = service_open("nosuchdb://nowhere", &svc, NULL);
  CHECK(st != SERVICE_OK, "open without out_error succeeded");
  CHECK(svc == NULL, "a failed open returned a handle");
}

/* `db_file`: the SQLite file `url` names, checked to exist (NULL on
 * PostgreSQL). */
static void test_requests(const char* url, const char* db_file) {
  service_t* svc = NULL;
  service_response_t* res = NULL;
  char* err = NULL;
  service_state st;
  const char* body;
  const char* header;
  size_t len = 0;
  size_t i;
  int found;
  const char* names[] = {"Accept", "X-Request-Id"};
  const char* values[] = {"application/json", "c-api-test-1"};

  st = service_open(url, &svc, &err);
  REQUIRE(st == SERVICE_OK, "open(%s) returned %d: %s", url, (int)st, err ? err : "(no message)");
  REQUIRE(svc != NULL, "open succeeded without a handle");
  CHECK(err == NULL, "a successful open set out_error");
  if (db_file != NULL) CHECK(access(db_file, F_OK) == 0, "the database file %s was not created", db_file);

  /* GET /v1/health */
  st = service_handle(svc, "GET", "/v1/health", NULL, NULL, 0, NULL, 0, &res, &err);
  REQUIRE(st == SERVICE_OK, "GET /v1/health returned state %d: %s", (int)st, err ? err : "(no message)");
  REQUIRE(res != NULL, "no response");
  body = service_response_body(res, &len);
  CHECK(service_response_status(res) == 200, "GET /v1/health status %d, body %.*s",
        service_response_status(res), (int)len, body ? body : "");
  CHECK(body != NULL && contains(body, len, "ok"), "health body lacks \"ok\": %.*s", (int)len,
        body ? body : "");
  CHECK(body != NULL && body[len] == '\0', "body is not NUL-terminated");
  header = service_response_header(res, "X-Request-Id");
  CHECK(header != NULL && header[0] != '\0', "no X-Request-Id header");
  CHECK(service_response_header(res, "x-request-id") == header, "header lookup is case-sensitive");
  CHECK(service_response_header(res, "X-No-Such-Header") == NULL, "an absent header was found");
  found = 0;
  for (i = 0; i < service_response_header_count(res); ++i) {
    const char* name = service_response_header_name(res, i);
    CHECK(name != NULL && service_response_header_value(res, i) != NULL, "header %u missing", (unsigned)i);
    if (name != NULL && strcmp(name, "X-Request-Id") == 0) found = 1;
  }
  CHECK(found, "X-Request-Id not among the %u listed headers", (unsigned)service_response_header_count(res));
  CHECK(service_response_header_name(res, service_response_header_count(res)) == NULL,
        "header name out of range is not NULL");
  service_response_destroy(res);
  res = NULL;

  /* Lower-case method, a query string and request headers. */
  st = service_handle(svc, "get", "/v1/health?verbose=1", names, values, 2, NULL, 0, &res, &err);
  REQUIRE(st == SERVICE_OK, "get /v1/health?verbose=1 returned state %d: %s", (int)st, err ? err : "");
  CHECK(service_response_status(res) == 200, "get /v1/health?verbose=1 status %d",
        service_response_status(res));
  service_response_destroy(res);
  res = NULL;

  /* An unknown route: 404 with a JSON error body. */
  st = service_handle(svc, "GET", "/v1/no-such-route", NULL, NULL, 0, NULL, 0, &res, &err);
  REQUIRE(st == SERVICE_OK, "GET /v1/no-such-route returned state %d: %s", (int)st, err ? err : "");
  body = service_response_body(res, &len);
  CHECK(service_response_status(res) == 404, "unknown route status %d", service_response_status(res));
  CHECK(len > 0 && body[0] == '{' && body[len - 1] == '}', "unknown route body is not a JSON object: %.*s",
        (int)len, body);
  header = service_response_header(res, "Content-Type");
  CHECK(header != NULL && strstr(header, "application/json") != NULL, "unknown route content type %s",
        header ? header : "(none)");
  CHECK(service_response_header(res, "X-Request-Id") != NULL, "404 has no X-Request-Id header");
  service_response_destroy(res);
  res = NULL;

  /* A POST with a body reaches the API (a malformed login is refused, not a crash). */
  st = service_handle(svc, "POST", "/v1/auth/login", NULL, NULL, 0, "{not json", 9, &res, &err);
  REQUIRE(st == SERVICE_OK, "POST returned state %d: %s", (int)st, err ? err : "");
  CHECK(service_response_status(res) >= 400 && service_response_status(res) < 500,
        "malformed POST body answered %d", service_response_status(res));
  service_response_destroy(res);
  res = NULL;

  /* Argument checks on an open handle. */
  res = (service_response_t*)1;
  st = service_handle(svc, "GET", "no-leading-slash", NULL, NULL, 0, NULL, 0, &res, &err);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "a path without '/' returned %d", (int)st);
  CHECK(res == NULL, "a refused request left *out non-NULL");
  CHECK(err != NULL, "a refused request gave no message");
  service_free(err);
  err = NULL;
  res = NULL;
  st = service_handle(svc, "GET", "/v1/health", NULL, NULL, 1, NULL, 0, &res, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "header_count 1 with NULL arrays returned %d", (int)st);
  st = service_handle(svc, "POST", "/v1/health", NULL, NULL, 0, NULL, 5, &res, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "NULL body with body_len 5 returned %d", (int)st);

done:
  service_response_destroy(res);
  service_free(err);
  service_close(svc);
}

static void test_reopen(const char* url) {
  /* The database written by test_requests opens again (migrations already applied). */
  service_t* svc = NULL;
  service_response_t* res = NULL;
  char* err = NULL;
  service_state st;

  st = service_open(url, &svc, &err);
  REQUIRE(st == SERVICE_OK, "reopen(%s) returned %d: %s", url, (int)st, err ? err : "");
  st = service_handle(svc, "GET", "/v1/health", NULL, NULL, 0, NULL, 0, &res, NULL);
  REQUIRE(st == SERVICE_OK, "GET after reopen returned state %d", (int)st);
  CHECK(service_response_status(res) == 200, "GET after reopen status %d", service_response_status(res));

done:
  service_response_destroy(res);
  service_free(err);
  service_close(svc);
}

/* ---- Streamed responses: the export and the live stream. ---- */

/* A growing byte buffer (the pieces of one streamed body). */
typedef struct {
  char* data;
  size_t len;
  size_t cap;
} buffer;

static void buffer_append(buffer* b, const char* p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    char* grown;
    while (cap < b->len + n + 1) cap *= 2;
    grown = (char*)realloc(b->data, cap);
    if (grown == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static long now_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void sleep_ms(long ms) {
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

/* Copies the string value of the first "key":"..." found after `after` (the
 * start of the body when NULL) into out. 1 when found. Enough for ids and
 * tokens, which hold no escapes. */
static int json_string(const char* body, const char* after, const char* key, char* out, size_t cap) {
  char pattern[128];
  const char* at = body;
  const char* end;
  if (body == NULL) return 0;
  if (after != NULL) {
    at = strstr(body, after);
    if (at == NULL) return 0;
  }
  snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
  at = strstr(at, pattern);
  if (at == NULL) return 0;
  at += strlen(pattern);
  end = strchr(at, '"');
  if (end == NULL || (size_t)(end - at) >= cap) return 0;
  memcpy(out, at, (size_t)(end - at));
  out[end - at] = '\0';
  return 1;
}

/* 1 when `s` is one JSON object whose brackets and strings are balanced (a
 * structural check, not a full parser). */
static int json_object_balanced(const char* s, size_t n) {
  int depth = 0;
  int in_string = 0;
  size_t i;
  if (n == 0 || s[0] != '{' || s[n - 1] != '}') return 0;
  for (i = 0; i < n; ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = 0;
      }
      continue;
    }
    if (c == '"') in_string = 1;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') {
      if (--depth < 0) return 0;
      if (depth == 0 && i != n - 1) return 0;
    }
  }
  return depth == 0 && !in_string;
}

/* A registered account on an open service: what the streamed routes need. */
typedef struct {
  service_t* svc;
  char token[4096];
  char org_id[128];
  char api_key[256];
} account;

/* One request as the account: its bearer token and organization, or (with
 * capture_key) a capture key. */
static service_state call(const account* a, const char* method, const char* target, int as_capture_key,
                          const char* body, service_response_t** res) {
  char authorization[4200];
  const char* names[3];
  const char* values[3];
  size_t n = 0;
  if (as_capture_key) {
    names[n] = "X-Service-Key";
    values[n++] = a->api_key;
  } else {
    snprintf(authorization, sizeof authorization, "Bearer %s", a->token);
    names[n] = "Authorization";
    values[n++] = authorization;
    names[n] = "X-Service-Org";
    values[n++] = a->org_id;
  }
  if (body != NULL) {
    names[n] = "Content-Type";
    values[n++] = "application/json";
  }
  return service_handle(a->svc, method, target, names, values, n, body, body ? strlen(body) : 0, res, NULL);
}

/* Reports an error titled `title_json` (JSON-escaped) with `message`; copies
 * the bug's id into id (when not NULL). 1 on 201. */
static int ingest(const account* a, const char* title_json, const char* message, char* id, size_t id_cap) {
  char body[2048];
  service_response_t* res = NULL;
  int ok;
  snprintf(body, sizeof body,
           "{\"title\":\"%s\",\"url\":\"https://app.example.com/orders/123\",\"events\":[{\"type\":\"error\","
           "\"timestamp\":%ld,\"data\":{\"name\":\"TypeError\",\"message\":\"%s\"}}],"
           "\"metadata\":{\"autoReport\":\"error\"}}",
           title_json, now_ms(CLOCK_REALTIME), message);
  ok = call(a, "POST", "/v1/ingest", 1, body, &res) == SERVICE_OK && service_response_status(res) == 201;
  CHECK(ok, "ingest \"%s\" answered %d: %s", title_json, service_response_status(res),
        service_response_body(res, NULL) ? service_response_body(res, NULL) : "");
  if (ok && id != NULL) {
    ok = json_string(service_response_body(res, NULL), NULL, "id", id, id_cap);
    CHECK(ok, "no id in the ingest answer %s", service_response_body(res, NULL));
  }
  service_response_destroy(res);
  return ok;
}

/* Registers the first admin on a fresh service at `url`. 1 on success. */
static int open_account(const char* url, account* a) {
  static const char* const kNames[] = {"SERVICE_RATE_LIMITS"};
  static const char* const kValues[] = {"off"};
  static const char kRegister[] =
      "{\"email\":\"c-api@example.com\",\"password\":\"correct horse battery\",\"name\":\"C Caller\","
      "\"orgName\":\"C Org\"}";
  service_response_t* res = NULL;
  char* err = NULL;
  const char* body;
  service_state st;
  int ok = 0;

  memset(a, 0, sizeof *a);
  st = service_open_with_settings(url, kNames, kValues, 1, &a->svc, &err);
  REQUIRE(st == SERVICE_OK, "open(%s) returned %d: %s", url, (int)st, err ? err : "");
  st = service_handle(a->svc, "POST", "/v1/auth/register", NULL, NULL, 0, kRegister, strlen(kRegister), &res,
                      &err);
  REQUIRE(st == SERVICE_OK, "register returned state %d: %s", (int)st, err ? err : "");
  body = service_response_body(res, NULL);
  REQUIRE(service_response_status(res) == 201, "register answered %d: %s", service_response_status(res),
          body);
  REQUIRE(json_string(body, NULL, "accessToken", a->token, sizeof a->token), "no accessToken in %s", body);
  REQUIRE(json_string(body, NULL, "apiKey", a->api_key, sizeof a->api_key), "no apiKey in %s", body);
  REQUIRE(json_string(body, "\"org\":{", "id", a->org_id, sizeof a->org_id), "no org id in %s", body);
  ok = 1;

done:
  service_response_destroy(res);
  service_free(err);
  if (!ok) {
    service_close(a->svc);
    a->svc = NULL;
  }
  return ok;
}

/* Pulls a stream to its end into `out`; counts the pieces. 1 on END. */
static int pull_all(service_stream_t* stream, buffer* out, int* pieces) {
  int i;
  *pieces = 0;
  for (i = 0; i < 100000; ++i) {
    service_stream_state state = SERVICE_STREAM_WAIT;
    const char* data = NULL;
    size_t len = 1;
    char* err = NULL;
    service_state st = service_stream_next(stream, 5000, &state, &data, &len, &err);
    if (st != SERVICE_OK) {
      CHECK(st == SERVICE_OK, "service_stream_next returned %d: %s", (int)st, err ? err : "");
      service_free(err);
      return 0;
    }
    if (state == SERVICE_STREAM_END) {
      CHECK(data != NULL && data[0] == '\0' && len == 0, "END came with %u bytes", (unsigned)len);
      return 1;
    }
    if (state == SERVICE_STREAM_WAIT) continue;
    CHECK(data != NULL && len > 0 && data[len] == '\0', "a DATA piece of %u bytes, not NUL-terminated",
          (unsigned)len);
    buffer_append(out, data, len);
    ++*pieces;
  }
  CHECK(0, "the stream did not end");
  return 0;
}

/* GET `target`, streamed: checks the status and content type, takes the
 * stream and destroys the response. NULL on failure. */
static service_stream_t* open_stream(const account* a, const char* target, const char* content_type) {
  service_response_t* res = NULL;
  service_stream_t* stream = NULL;
  service_stream_t* again = (service_stream_t*)1;
  size_t len = 1;
  const char* header;
  char* err = NULL;
  service_state st = call(a, "GET", target, 0, NULL, &res);
  REQUIRE(st == SERVICE_OK, "GET %s returned state %d", target, (int)st);
  REQUIRE(service_response_status(res) == 200, "GET %s answered %d: %s", target, service_response_status(res),
          service_response_body(res, NULL));
  CHECK(service_response_is_streamed(res) == 1, "GET %s is not streamed", target);
  CHECK(service_response_body(res, &len) != NULL && len == 0, "a streamed response has a body of %u bytes",
        (unsigned)len);
  header = service_response_header(res, "Content-Type");
  CHECK(header != NULL && strncmp(header, content_type, strlen(content_type)) == 0, "GET %s content type %s",
        target, header ? header : "(none)");
  st = service_response_take_stream(res, &stream, &err);
  REQUIRE(st == SERVICE_OK && stream != NULL, "take_stream returned %d: %s", (int)st, err ? err : "");
  st = service_response_take_stream(res, &again, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT && again == NULL, "taking the stream twice returned %d", (int)st);
  CHECK(service_response_is_streamed(res) == 1, "a taken stream's response no longer says streamed");

done:
  service_free(err);
  service_response_destroy(res); /* the stream lives on */
  return stream;
}

/* Non-streamed responses say so and have no stream to take; the stream
 * functions refuse what they cannot use. */
static void test_stream_arguments(const account* a) {
  service_response_t* res = NULL;
  service_stream_t* stream = (service_stream_t*)1;
  service_stream_state state = SERVICE_STREAM_DATA;
  const char* data = NULL;
  size_t len = 1;
  char* err = NULL;
  service_state st;

  CHECK(service_response_is_streamed(NULL) == 0, "is_streamed(NULL)");
  st = service_response_take_stream(NULL, &stream, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT && stream == NULL, "take_stream(NULL) returned %d", (int)st);
  st = service_stream_next(NULL, 0, &state, &data, &len, &err);
  CHECK(st == SERVICE_INVALID_ARGUMENT && err != NULL, "next(NULL) returned %d", (int)st);
  CHECK(data != NULL && len == 0, "next(NULL) left the outputs unset");
  service_free(err);
  err = NULL;
  service_stream_set_waker(NULL, NULL, NULL);
  service_stream_destroy(NULL);

  st = call(a, "GET", "/v1/health", 0, NULL, &res);
  REQUIRE(st == SERVICE_OK, "GET /v1/health returned state %d", (int)st);
  CHECK(service_response_is_streamed(res) == 0, "GET /v1/health says streamed");
  stream = (service_stream_t*)1;
  st = service_response_take_stream(res, &stream, &err);
  CHECK(st == SERVICE_INVALID_ARGUMENT && stream == NULL && err != NULL,
        "take_stream of a plain response returned %d", (int)st);
  st = service_response_take_stream(res, NULL, NULL);
  CHECK(st == SERVICE_INVALID_ARGUMENT, "take_stream(out=NULL) returned %d", (int)st);

done:
  service_free(err);
  service_response_destroy(res);
}

/* The CSV and JSON exports of three reported bugs, pulled piece by piece;
 * exports closed early and never taken. */
static void test_export(const account* a) {
  static const char kHeader[] =
      "id,title,severity,status,report_count,url,first_seen,last_seen,created_at\r\n";
  char ids[3][128];
  char row_start[256];
  char pattern[512];
  buffer csv = {NULL, 0, 0};
  buffer json = {NULL, 0, 0};
  service_stream_t* stream = NULL;
  service_response_t* res = NULL;
  service_stream_state state;
  const char* data;
  const char* header;
  size_t len;
  size_t at;
  int pieces = 0;
  int rows = 0;
  int i;
  int seen[3] = {0, 0, 0};
  service_state st;

  REQUIRE(ingest(a, "Checkout fails", "total is undefined", ids[0], sizeof ids[0]), "ingest 1");
  REQUIRE(ingest(a, "Comma, \\\"quoted\\\"", "cart is null", ids[1], sizeof ids[1]), "ingest 2");
  REQUIRE(ingest(a, "Plain", "x is not a function", ids[2], sizeof ids[2]), "ingest 3");

  /* The headers are decided before the body. */
  st = call(a, "GET", "/v1/bugs/export?format=csv", 0, NULL, &res);
  REQUIRE(st == SERVICE_OK && service_response_status(res) == 200, "CSV export answered %d",
          service_response_status(res));
  header = service_response_header(res, "X-Row-Count");
  CHECK(header != NULL && strcmp(header, "3") == 0, "X-Row-Count %s", header ? header : "(none)");
  /* A streamed response destroyed without taking its stream releases it. */
  service_response_destroy(res);
  res = NULL;

  /* CSV, whole. */
  stream = open_stream(a, "/v1/bugs/export?format=csv", "text/csv");
  REQUIRE(stream != NULL, "no CSV stream");
  REQUIRE(pull_all(stream, &csv, &pieces), "the CSV export did not end");
  CHECK(pieces >= 2, "the CSV came in %d piece(s)", pieces);
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  CHECK(st == SERVICE_OK && state == SERVICE_STREAM_END, "after END: state %d, %d", (int)st, (int)state);
  service_stream_destroy(stream);
  stream = NULL;
  REQUIRE(csv.len > strlen(kHeader) && memcmp(csv.data, kHeader, strlen(kHeader)) == 0,
          "the CSV does not start with its header line: %s", csv.data ? csv.data : "");
  for (at = strlen(kHeader); at < csv.len;) {
    const char* end = strstr(csv.data + at, "\r\n");
    REQUIRE(end != NULL, "a CSV row without CRLF: %s", csv.data + at);
    ++rows;
    for (i = 0; i < 3; ++i) {
      snprintf(row_start, sizeof row_start, "%s,", ids[i]);
      if (strncmp(csv.data + at, row_start, strlen(row_start)) == 0) ++seen[i];
    }
    at = (size_t)(end - csv.data) + 2;
  }
  CHECK(rows == 3, "%d CSV rows:\n%s", rows, csv.data);
  for (i = 0; i < 3; ++i) CHECK(seen[i] == 1, "bug %s in %d CSV rows", ids[i], seen[i]);
  snprintf(pattern, sizeof pattern, "%s,\"Comma, \"\"quoted\"\"\",", ids[1]);
  CHECK(contains(csv.data, csv.len, pattern), "no RFC 4180 quoted row %s in:\n%s", pattern, csv.data);
  snprintf(pattern, sizeof pattern, "%s,Checkout fails,", ids[0]);
  CHECK(contains(csv.data, csv.len, pattern), "no row %s in:\n%s", pattern, csv.data);

  /* JSON, whole. */
  stream = open_stream(a, "/v1/bugs/export", "application/json");
  REQUIRE(stream != NULL, "no JSON stream");
  REQUIRE(pull_all(stream, &json, &pieces), "the JSON export did not end");
  CHECK(pieces >= 2, "the JSON came in %d piece(s)", pieces);
  service_stream_destroy(stream);
  stream = NULL;
  CHECK(json_object_balanced(json.data, json.len), "the JSON export is not one object: %s", json.data);
  CHECK(strncmp(json.data, "{\"bugs\":[", 9) == 0, "the JSON export starts %.20s", json.data);
  CHECK(contains(json.data, json.len, "\"count\":3"), "no count 3 in %s", json.data);
  CHECK(contains(json.data, json.len, "\"truncated\":false"), "no truncated false in %s", json.data);
  CHECK(contains(json.data, json.len, "\"title\":\"Comma, \\\"quoted\\\"\""), "no escaped title in %s",
        json.data);
  for (i = 0; i < 3; ++i) {
    snprintf(pattern, sizeof pattern, "\"id\":\"%s\"", ids[i]);
    CHECK(contains(json.data, json.len, pattern), "bug %s not in %s", ids[i], json.data);
  }

  /* Closed after its first piece: everything is released (ASan checks). */
  stream = open_stream(a, "/v1/bugs/export?format=csv", "text/csv");
  REQUIRE(stream != NULL, "no CSV stream");
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  CHECK(st == SERVICE_OK && state == SERVICE_STREAM_DATA && len > 0, "first piece: %d, %d", (int)st,
        (int)state);

done:
  service_stream_destroy(stream);
  service_response_destroy(res);
  free(csv.data);
  free(json.data);
}

/* Counts waker calls (from whichever thread makes the event). */
typedef struct {
  pthread_mutex_t mu;
  int calls;
} wake_counter;

static void count_wake(void* context) {
  wake_counter* counter = (wake_counter*)context;
  pthread_mutex_lock(&counter->mu);
  ++counter->calls;
  pthread_mutex_unlock(&counter->mu);
}

static int wake_calls(wake_counter* counter) {
  int calls;
  pthread_mutex_lock(&counter->mu);
  calls = counter->calls;
  pthread_mutex_unlock(&counter->mu);
  return calls;
}

/* A reader thread blocked in service_stream_next(-1) until an event. */
typedef struct {
  service_stream_t* stream;
  service_state st;
  service_stream_state state;
  buffer text;
} waiter;

static void* wait_for_piece(void* arg) {
  waiter* w = (waiter*)arg;
  const char* data = NULL;
  size_t len = 0;
  w->st = service_stream_next(w->stream, -1, &w->state, &data, &len, NULL);
  if (w->st == SERVICE_OK && w->state == SERVICE_STREAM_DATA) buffer_append(&w->text, data, len);
  return NULL;
}

/* The live stream: the first piece, nothing yet, an event after a report,
 * the waker, a timed and a blocking wait, closed early. */
static void test_live_stream(const account* a) {
  wake_counter counter;
  waiter w;
  pthread_t thread;
  service_stream_t* stream = NULL;
  service_stream_state state;
  const char* data = NULL;
  size_t len = 0;
  long started;
  int calls;
  service_state st;

  pthread_mutex_init(&counter.mu, NULL);
  counter.calls = 0;
  memset(&w, 0, sizeof w);

  stream = open_stream(a, "/v1/bugs/stream", "text/event-stream");
  REQUIRE(stream != NULL, "no live stream");
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  REQUIRE(st == SERVICE_OK && state == SERVICE_STREAM_DATA, "first piece: %d, %d", (int)st, (int)state);
  CHECK(len == strlen("retry: 3000\n\n") && strcmp(data, "retry: 3000\n\n") == 0, "first piece \"%s\"", data);
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  CHECK(st == SERVICE_OK && state == SERVICE_STREAM_WAIT && len == 0 && data != NULL && data[0] == '\0',
        "nothing yet: %d, %d, %u bytes", (int)st, (int)state, (unsigned)len);

  /* A report while no waker is set: setting one then calls it at once. */
  REQUIRE(ingest(a, "Live one", "first live error", NULL, 0), "ingest");
  service_stream_set_waker(stream, count_wake, &counter);
  CHECK(wake_calls(&counter) == 1, "set_waker after an event: %d call(s)", wake_calls(&counter));
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  REQUIRE(st == SERVICE_OK && state == SERVICE_STREAM_DATA, "after a report: %d, %d", (int)st, (int)state);
  CHECK(contains(data, len, "event: new_bug\n") && contains(data, len, "\"title\":\"Live one\""),
        "the event: %s", data);
  st = service_stream_next(stream, 0, &state, &data, &len, NULL);
  CHECK(st == SERVICE_OK && state == SERVICE_STREAM_WAIT, "drained: %d, %d", (int)st, (int)state);

  /* The same report again: a duplicate, announced by the waker. */
  REQUIRE(ingest(a, "Live one", "first live error", NULL, 0), "ingest");
  CHECK(wake_calls(&counter) >= 2, "after the second report: %d waker call(s)", wake_calls(&counter));
  st = service_stream_next(stream, 5000, &state, &data, &len, NULL);
  REQUIRE(st == SERVICE_OK && state == SERVICE_STREAM_DATA, "after a duplicate: %d, %d", (int)st, (int)state);
  CHECK(contains(data, len, "event: duplicate\n"), "the event: %s", data);

  /* Nothing comes: a timed wait answers WAIT after its timeout. */
  started = now_ms(CLOCK_MONOTONIC);
  st = service_stream_next(stream, 150, &state, &data, &len, NULL);
  CHECK(st == SERVICE_OK && state == SERVICE_STREAM_WAIT, "timed wait: %d, %d", (int)st, (int)state);
  CHECK(now_ms(CLOCK_MONOTONIC) - started >= 140, "a 150 ms wait returned after %ld ms",
        now_ms(CLOCK_MONOTONIC) - started);

  /* A reader blocked without a timeout wakes when a report comes in on
   * another thread. */
  w.stream = stream;
  REQUIRE(pthread_create(&thread, NULL, wait_for_piece, &w) == 0, "pthread_create");
  sleep_ms(100);
  CHECK(ingest(a, "Live two", "second live error", NULL, 0), "ingest");
  pthread_join(thread, NULL);
  CHECK(w.st == SERVICE_OK && w.state == SERVICE_STREAM_DATA, "the blocked reader: %d, %d", (int)w.st,
        (int)w.state);
  CHECK(w.text.data != NULL && contains(w.text.data, w.text.len, "event: new_bug\n") &&
            contains(w.text.data, w.text.len, "\"title\":\"Live two\""),
        "the blocked reader got: %s", w.text.data ? w.text.data : "");
  CHECK(wake_calls(&counter) >= 3, "after the third report: %d waker call(s)", wake_calls(&counter));

  /* Cleared: no more calls. */
  service_stream_set_waker(stream, NULL, NULL);
  calls = wake_calls(&counter);
  REQUIRE(ingest(a, "Live one", "first live error", NULL, 0), "ingest");
  CHECK(wake_calls(&counter) == calls, "a cleared waker was called (%d, then %d)", calls,
        wake_calls(&counter));

  /* Closed early, with an event still unread: the subscription and the
   * event are released (ASan checks), later reports reach nobody. */
  service_stream_destroy(stream);
  stream = NULL;
  CHECK(ingest(a, "Live three", "after the close", NULL, 0), "ingest after the stream closed");

done:
  service_stream_destroy(stream);
  free(w.text.data);
  pthread_mutex_destroy(&counter.mu);
}

/* service_close with streams still open: they end, and stay the caller's to
 * destroy. */
static void test_close_with_open_streams(account* a) {
  service_response_t* res = NULL;
  service_stream_t* live = NULL;
  service_stream_state state = SERVICE_STREAM_DATA;
  const char* data = NULL;
  size_t len = 1;
  char* err = NULL;
  service_state st;

  live = open_stream(a, "/v1/bugs/stream", "text/event-stream");
  st = call(a, "GET", "/v1/bugs/export", 0, NULL, &res);
  CHECK(st == SERVICE_OK && service_response_is_streamed(res), "export: %d", (int)st);
  service_close(a->svc);
  a->svc = NULL;
  if (live != NULL) {
    st = service_stream_next(live, 0, &state, &data, &len, &err);
    CHECK(st == SERVICE_ERROR && err != NULL, "next after service_close returned %d", (int)st);
    CHECK(data != NULL && len == 0, "next after service_close left a piece");
    if (err != NULL) printf("expected stream error: %s\n", err);
  }
  service_free(err);
  service_stream_destroy(live);
  service_response_destroy(res);
}

static void test_streams(const char* url) {
  account a;
  if (!open_account(url, &a)) return;
  test_stream_arguments(&a);
  test_export(&a);
  test_live_stream(&a);
  test_close_with_open_streams(&a);
  service_close(a.svc);
}

static void remove_tree(const char* dir) {
  static const char* const kBases[] = {"service.db", "streams.db"};
  static const char* const kSuffixes[] = {"", "-wal", "-shm", "-journal"};
  char path[4200];
  size_t i;
  size_t j;
  for (i = 0; i < sizeof kBases / sizeof kBases[0]; ++i) {
    for (j = 0; j < sizeof kSuffixes / sizeof kSuffixes[0]; ++j) {
      snprintf(path, sizeof path, "%s/%s%s", dir, kBases[i], kSuffixes[j]);
      unlink(path);
    }
  }
  if (rmdir(dir) != 0) fprintf(stderr, "note: could not remove %s\n", dir);
}

#ifdef SERVICE_C_TEST_HAS_LIBPQ
static void ignore_notice(void* arg, const char* message) {
  (void)arg;
  (void)message;
}

/* A fresh schema in the database SERVICE_TEST_POSTGRES_URL names (as
 * tests/support/test_db.cpp makes them); `url` receives a libpq URI whose
 * search path starts there. 1 on success. */
static int fresh_postgres_schema(char* schema, size_t schema_cap, char* url, size_t url_cap) {
  const char* base = getenv("SERVICE_TEST_POSTGRES_URL");
  char sql[256];
  PGconn* conn;
  PGresult* res;
  int ok;
  if (base == NULL || base[0] == '\0') {
    fprintf(stderr,
            "SERVICE_TEST_BACKEND=postgres needs SERVICE_TEST_POSTGRES_URL (start one with "
            "`scripts/pg-cluster.sh start /tmp/pg` and export the URL it prints)\n");
    return 0;
  }
  static int made = 0;
  snprintf(schema, schema_cap, "c_api_%ld_%ld_%d", (long)getpid(), now_ms(CLOCK_REALTIME) % 1000000L, ++made);
  conn = PQconnectdb(base);
  if (PQstatus(conn) != CONNECTION_OK) {
    fprintf(stderr, "cannot connect to SERVICE_TEST_POSTGRES_URL: %s\n", PQerrorMessage(conn));
    PQfinish(conn);
    return 0;
  }
  PQsetNoticeProcessor(conn, ignore_notice, NULL);
  /* pg_trgm (bug search's index) lives once per database, in public. */
  PQclear(PQexec(conn, "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public"));
  snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
  res = PQexec(conn, sql);
  ok = PQresultStatus(res) == PGRES_COMMAND_OK;
  if (!ok) fprintf(stderr, "cannot create schema %s: %s\n", schema, PQresultErrorMessage(res));
  PQclear(res);
  PQfinish(conn);
  snprintf(url, url_cap, "%s%soptions=-csearch_path%%3D%s%%2Cpublic", base, strchr(base, '?') ? "&" : "?",
           schema);
  return ok;
}

static void drop_postgres_schema(const char* schema) {
  char sql[256];
  PGconn* conn = PQconnectdb(getenv("SERVICE_TEST_POSTGRES_URL"));
  if (PQstatus(conn) == CONNECTION_OK) {
    PQsetNoticeProcessor(conn, ignore_notice, NULL);
    snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
    PQclear(PQexec(conn, sql));
  }
  PQfinish(conn);
}
#endif

int main(void) {
  char dir[4096];
  char db_file[4200];
  char url[4300];
  char streams_url[4300];
  const char* tmp = getenv("TMPDIR");
  const char* backend = getenv("SERVICE_TEST_BACKEND");
  int postgres = 0;
#ifdef SERVICE_C_TEST_HAS_LIBPQ
  char schema[64];
  char streams_schema[64];
#endif

  if (backend != NULL && backend[0] != '\0') {
    if (strcmp(backend, "postgres") == 0 || strcmp(backend, "postgresql") == 0 ||
        strcmp(backend, "pg") == 0) {
      postgres = 1;
    } else if (strcmp(backend, "sqlite") != 0) {
      fprintf(stderr, "unknown SERVICE_TEST_BACKEND \"%s\" (expected sqlite or postgres)\n", backend);
      return 2;
    }
  }
  test_version();
  test_null_is_accepted();
  test_invalid_arguments();
  test_invalid_url();

  if (postgres) {
#ifdef SERVICE_C_TEST_HAS_LIBPQ
    if (!fresh_postgres_schema(schema, sizeof schema, url, sizeof url)) return 2;
    if (!fresh_postgres_schema(streams_schema, sizeof streams_schema, streams_url, sizeof streams_url)) {
      drop_postgres_schema(schema);
      return 2;
    }
    printf("c_api_test: PostgreSQL, schemas %s and %s\n", schema, streams_schema);
    test_requests(url, NULL);
    test_reopen(url);
    test_streams(streams_url);
    drop_postgres_schema(schema);
    drop_postgres_schema(streams_schema);
#else
    fprintf(stderr, "SERVICE_TEST_BACKEND=postgres: this build of c_api_test has no libpq\n");
    return 2;
#endif
  } else {
    snprintf(dir, sizeof dir, "%s/service-c-api-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
      perror("mkdtemp");
      return 2;
    }
    snprintf(db_file, sizeof db_file, "%s/service.db", dir);
    snprintf(url, sizeof url, "sqlite:%s", db_file);
    snprintf(streams_url, sizeof streams_url, "sqlite:%s/streams.db", dir);
    printf("c_api_test: SQLite, in %s\n", dir);
    test_requests(url, db_file);
    test_reopen(url);
    test_streams(streams_url);
    remove_tree(dir);
  }

  if (failures > 0) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
