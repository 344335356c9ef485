/* c_api_test: the C ABI (bindings/c/include/service_c.h), driven from C.
 *
 * Each check prints what it expected and what it got; the program exits
 * non-zero when any check failed. */
#define _XOPEN_SOURCE 700 /* mkdtemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void test_requests(const char* dir) {
  char url[4200];
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

  snprintf(url, sizeof url, "sqlite:%s/service.db", dir);
  st = service_open(url, &svc, &err);
  REQUIRE(st == SERVICE_OK, "open(%s) returned %d: %s", url, (int)st, err ? err : "(no message)");
  REQUIRE(svc != NULL, "open succeeded without a handle");
  CHECK(err == NULL, "a successful open set out_error");
  CHECK(access(url + strlen("sqlite:"), F_OK) == 0, "the database file %s was not created", url + 7);

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

static void test_reopen(const char* dir) {
  /* The file written by test_requests opens again (migrations already applied). */
  char url[4200];
  service_t* svc = NULL;
  service_response_t* res = NULL;
  char* err = NULL;
  service_state st;

  snprintf(url, sizeof url, "sqlite:%s/service.db", dir);
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

static void remove_tree(const char* dir) {
  static const char* const kFiles[] = {"service.db", "service.db-wal", "service.db-shm",
                                       "service.db-journal"};
  char path[4200];
  size_t i;
  for (i = 0; i < sizeof kFiles / sizeof kFiles[0]; ++i) {
    snprintf(path, sizeof path, "%s/%s", dir, kFiles[i]);
    unlink(path);
  }
  if (rmdir(dir) != 0) fprintf(stderr, "note: could not remove %s\n", dir);
}

int main(void) {
  char dir[4096];
  const char* tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/service-c-api-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 2;
  }

  test_version();
  test_null_is_accepted();
  test_invalid_arguments();
  test_invalid_url();
  test_requests(dir);
  test_reopen(dir);

  remove_tree(dir);
  if (failures > 0) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
