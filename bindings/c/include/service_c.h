/* service_c.h: the C ABI of the issue capture and triage service.
 *
 * Open a service on a database URL, hand it HTTP requests as plain strings and
 * read back its responses. No socket is involved: the caller's own HTTP server
 * (or test, or tool) owns the transport.
 *
 *   service_t* svc = NULL;
 *   char* err = NULL;
 *   if (service_open("sqlite:data/service.db", &svc, &err) != SERVICE_OK) {
 *     fprintf(stderr, "%s\n", err);
 *     service_free(err);
 *     return 1;
 *   }
 *   service_response_t* res = NULL;
 *   if (service_handle(svc, "GET", "/v1/health", NULL, NULL, 0, NULL, 0, &res, NULL) == SERVICE_OK) {
 *     size_t len = 0;
 *     const char* body = service_response_body(res, &len);
 *     printf("%d %.*s\n", service_response_status(res), (int)len, body);
 *   }
 *   service_response_destroy(res);
 *   service_close(svc);
 *
 * A streamed response (the CSV/JSON export, the live event stream) carries
 * its body in a service_stream_t instead, pulled one piece at a time (here
 * before the response is destroyed):
 *
 *   if (service_response_is_streamed(res)) {
 *     service_stream_t* stream = NULL;
 *     service_response_take_stream(res, &stream, NULL);
 *     service_response_destroy(res);  // the stream lives on by itself
 *     for (;;) {
 *       service_stream_state state;
 *       const char* piece;
 *       size_t n;
 *       if (service_stream_next(stream, 1000, &state, &piece, &n, NULL) != SERVICE_OK) break;
 *       if (state == SERVICE_STREAM_END) break;
 *       if (state == SERVICE_STREAM_DATA) fwrite(piece, 1, n, out);
 *       // SERVICE_STREAM_WAIT: nothing yet (an event stream between events)
 *     }
 *     service_stream_destroy(stream);  // also ends a stream early
 *   }
 *
 * Conventions:
 *   - Every handle is opaque and released by its own destroy function; destroy
 *     functions accept NULL.
 *   - Fallible calls return a service_state. An optional `char** out_error`
 *     receives a message on failure (set to NULL on success); release it with
 *     service_free. Pass NULL when the message is not wanted.
 *   - Strings are NUL-terminated UTF-8 unless a length is passed beside them.
 *   - No C++ exception ever crosses this interface.
 *
 * Thread-safety: service_handle may be called from many threads at once on
 * the same service_t. A service_response_t is a plain value owned by the
 * caller; reading it from several threads is safe, taking its stream or
 * destroying it is not. A service_stream_t is used by one thread at a time
 * (any thread, not necessarily the one that made the request): its calls
 * must not overlap. Different streams, and streams and service_handle, may
 * be used from different threads at once. service_close must not race with
 * any other call on the same handle, its responses or its streams.
 *
 * The header compiles as C99 and as C++.
 */
#ifndef SERVICE_C_H_
#define SERVICE_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the header. Compare with service_version() at run time to detect
 * a header and library mismatch. SERVICE_VERSION_NUMBER is
 * major * 1000000 + minor * 1000 + patch. Kept equal to the CMake project
 * version (checked when the project is configured). */
#define SERVICE_VERSION "0.1.0"
#define SERVICE_VERSION_MAJOR 0
#define SERVICE_VERSION_MINOR 1
#define SERVICE_VERSION_PATCH 0
#define SERVICE_VERSION_NUMBER \
  (SERVICE_VERSION_MAJOR * 1000000 + SERVICE_VERSION_MINOR * 1000 + SERVICE_VERSION_PATCH)

#if defined(_WIN32) && defined(SERVICE_C_BUILDING)
#define SERVICE_C_API __declspec(dllexport)
#elif defined(_WIN32)
#define SERVICE_C_API __declspec(dllimport)
#elif defined(__GNUC__)
#define SERVICE_C_API __attribute__((visibility("default")))
#else
#define SERVICE_C_API
#endif

/* An open service: a database, its migrations applied, every route
 * registered. */
typedef struct service_t service_t;
/* One HTTP response: status, headers and body. */
typedef struct service_response_t service_response_t;
/* The body of a streamed response, produced over time (see
 * service_stream_next). */
typedef struct service_stream_t service_stream_t;

typedef enum service_state {
  SERVICE_OK = 0,
  /* The operation failed (database unreachable, migration failed, internal
   * error). out_error says why. */
  SERVICE_ERROR = 1,
  /* The caller passed something unusable (NULL where a value is required,
   * a malformed database URL or setting). out_error says which. */
  SERVICE_INVALID_ARGUMENT = 2
} service_state;

/* What service_stream_next found. */
typedef enum service_stream_state {
  /* The next piece of the body: *out_data holds *out_len bytes (never 0). */
  SERVICE_STREAM_DATA = 0,
  /* Nothing to send within the timeout: the stream is open and idle (a live
   * event stream between events). Call service_stream_next again later. */
  SERVICE_STREAM_WAIT = 1,
  /* The body is complete; every further call answers END again. */
  SERVICE_STREAM_END = 2
} service_stream_state;

/* Version of the loaded library, e.g. "0.1.0". Static storage; never NULL. */
SERVICE_C_API const char* service_version(void);

/* Releases memory the library allocated for the caller (out_error strings).
 * Accepts NULL. */
SERVICE_C_API void service_free(void* ptr);

/* Opens a service on `database_url`: "sqlite:PATH" (the file and its folder
 * are created), "sqlite::memory:", or a libpq URI "postgresql://...".
 * Pending migrations are applied. Every other setting keeps its default
 * (see service_open_with_settings).
 * On success *out receives a handle to release with service_close. On failure
 * *out is set to NULL.
 * REQUIRES: database_url != NULL, out != NULL. */
SERVICE_C_API service_state service_open(const char* database_url, service_t** out, char** out_error);

/* Like service_open, with settings named as the server contract's
 * environment variables, e.g. {"SERVICE_RATE_LIMITS", "off"} or
 * {"SERVICE_TRUST_PROXY", "1"}. A setting given twice: the last wins.
 * An unknown name or a bad value: SERVICE_INVALID_ARGUMENT naming it.
 * REQUIRES: setting_names and setting_values hold setting_count non-NULL
 * strings each (both may be NULL when setting_count is 0). */
SERVICE_C_API service_state service_open_with_settings(const char* database_url,
                                                       const char* const* setting_names,
                                                       const char* const* setting_values,
                                                       size_t setting_count, service_t** out,
                                                       char** out_error);

/* Starts the background workers (mail, webhook deliveries, presence expiry,
 * batched bookkeeping). Optional: without them requests are still answered,
 * but nothing is sent. Idempotent. service_close stops them. */
SERVICE_C_API service_state service_start_workers(service_t* service, char** out_error);

/* Answers one HTTP request.
 *   method: "GET", "POST", ... (case-insensitive).
 *   path_and_query: the request target as sent, e.g. "/v1/bugs?limit=10";
 *     the path part is percent-decoded, the query is passed on as is.
 *   header_names / header_values: header_count pairs (both may be NULL when
 *     header_count is 0).
 *   body / body_len: the request body; body may be NULL when body_len is 0.
 * An HTTP error (404, 400, 500...) is still SERVICE_OK: read the status.
 * A streamed response (GET /v1/bugs/export, GET /v1/bugs/stream) has its
 * status and headers here and an empty service_response_body: its body is
 * pulled through service_response_take_stream and service_stream_next.
 * Rate limits apply per client address; requests made here carry none, so
 * they share one budget unless SERVICE_TRUST_PROXY is set and an
 * X-Forwarded-For header is passed, or SERVICE_RATE_LIMITS is "off".
 * On success *out receives a response to release with
 * service_response_destroy; on failure *out is set to NULL.
 * REQUIRES: service, method, path_and_query and out are non-NULL. */
SERVICE_C_API service_state service_handle(service_t* service, const char* method, const char* path_and_query,
                                           const char* const* header_names, const char* const* header_values,
                                           size_t header_count, const char* body, size_t body_len,
                                           service_response_t** out, char** out_error);

/* HTTP status code of the response, e.g. 200. 0 when response is NULL. */
SERVICE_C_API int service_response_status(const service_response_t* response);

/* The response body, valid until the response is destroyed. It may contain
 * NUL bytes; a NUL always follows the last byte. *len (when len is not NULL)
 * receives the length in bytes. Never NULL for a non-NULL response ("" when
 * empty); NULL (and *len = 0) when response is NULL. */
SERVICE_C_API const char* service_response_body(const service_response_t* response, size_t* len);

/* Value of the first header called `name` (case-insensitive), valid until the
 * response is destroyed; NULL when absent or when an argument is NULL. */
SERVICE_C_API const char* service_response_header(const service_response_t* response, const char* name);

/* Number of response headers, in the order the service set them, and the
 * name and value of the one at `index` (NULL when index is out of range).
 * For writing every header, Set-Cookie included, back to a client. */
SERVICE_C_API size_t service_response_header_count(const service_response_t* response);
SERVICE_C_API const char* service_response_header_name(const service_response_t* response, size_t index);
SERVICE_C_API const char* service_response_header_value(const service_response_t* response, size_t index);

/* Releases a response. A stream not taken from it is closed and released
 * with it. Accepts NULL. */
SERVICE_C_API void service_response_destroy(service_response_t* response);

/* 1 when the response's body is streamed (service_response_body is then ""
 * and the body comes from service_response_take_stream), else 0. Stays 1
 * after the stream was taken. 0 when response is NULL. */
SERVICE_C_API int service_response_is_streamed(const service_response_t* response);

/* Moves the body stream out of a streamed response into a handle of its
 * own, so the response can be destroyed once its status and headers are
 * written while the body is still being pulled. On success *out receives a
 * stream to release with service_stream_destroy; on failure *out is set to
 * NULL. A response that is not streamed, or whose stream was taken already:
 * SERVICE_INVALID_ARGUMENT.
 * REQUIRES: response != NULL, out != NULL. */
SERVICE_C_API service_state service_response_take_stream(service_response_t* response, service_stream_t** out,
                                                         char** out_error);

/* Pulls the next piece of a streamed body.
 *   timeout_ms: how long to wait when the stream has nothing to send yet.
 *     0 never waits (SERVICE_STREAM_WAIT at once: for the caller's own event
 *     loop, with service_stream_set_waker); a negative value waits until
 *     there is a piece or the end, which nothing else interrupts (a live
 *     stream may stay quiet for long: prefer a finite timeout where the
 *     caller must be able to stop; service_stream_waker says what wakes a
 *     live stream). Making a piece may itself take time (an
 *     export reads a page of rows from the database); that is not counted.
 * On SERVICE_OK *out_state says what was found. For SERVICE_STREAM_DATA
 * *out_data points to *out_len bytes owned by the stream, valid until the
 * next call of service_stream_next or service_stream_destroy on it (a NUL
 * follows the last byte); for WAIT and END *out_data is "" and *out_len 0.
 * Write each piece before asking for the next: a stream makes one piece at a
 * time, so a slow reader slows the producer and memory stays flat.
 * An export's END comes early when a database read fails mid-body (the
 * status was decided before the first piece): its CSV then has fewer rows
 * than X-Row-Count and its JSON stays unterminated. A live event stream ends
 * by itself when its access token expires or its access is revoked.
 * SERVICE_ERROR when making a piece failed (the stream is then closed and
 * every further call fails) or when service_close already ended the stream.
 * REQUIRES: stream, out_state, out_data and out_len are non-NULL. */
SERVICE_C_API service_state service_stream_next(service_stream_t* stream, int timeout_ms,
                                                service_stream_state* out_state, const char** out_data,
                                                size_t* out_len, char** out_error);

/* Called by the library when a stream that answered SERVICE_STREAM_WAIT may
 * have something to send: call service_stream_next again (it may still
 * answer WAIT). It only announces what follows a WAIT: until a stream
 * answers WAIT, keep calling service_stream_next. Runs on whichever thread
 * made the event (a request's thread, a background worker), possibly while
 * service_stream_next runs on another; it must return quickly, must not call
 * into this library, and typically writes to a pipe or an eventfd, or
 * signals a condition. A live stream's heartbeat (every 15 s) and its end at
 * the access token's expiry wake it only while the background workers run
 * (service_start_workers); without them they come at the next
 * service_stream_next after they are due. */
typedef void (*service_stream_waker)(void* context);

/* Sets (or, with wake == NULL, clears) the stream's waker, replacing the
 * previous one. When the stream may already have something to send, `wake`
 * is called once at once, on the calling thread, so no wake-up is lost. After
 * this call returns, the previous waker is not running and is not called
 * again. `context` is passed to `wake` as is; the caller keeps it alive
 * until the stream is destroyed or another waker is set. A NULL stream does
 * nothing. */
SERVICE_C_API void service_stream_set_waker(service_stream_t* stream, service_stream_waker wake,
                                            void* context);

/* Closes the stream, at its end or at any point before (a reader went away,
 * an event stream is no longer wanted), and releases it with everything it
 * holds (an export's place in its rows, a live stream's event
 * subscription). The waker is
 * not called once this returns. Valid also after service_close. Accepts
 * NULL. */
SERVICE_C_API void service_stream_destroy(service_stream_t* stream);

/* Stops the background workers after flushing queued work, closes the
 * database and releases the handle. Streams of this service still open
 * (taken or still inside a response) are ended first: their
 * service_stream_next then fails with SERVICE_ERROR. Responses and streams
 * remain the caller's to destroy, before or after this call. Accepts NULL. */
SERVICE_C_API void service_close(service_t* service);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SERVICE_C_H_ */
