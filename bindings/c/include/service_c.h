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
 * caller; reading it from several threads is safe, destroying it is not.
 * service_close must not race with any other call on the same handle.
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

typedef enum service_state {
  SERVICE_OK = 0,
  /* The operation failed (database unreachable, migration failed, internal
   * error). out_error says why. */
  SERVICE_ERROR = 1,
  /* The caller passed something unusable (NULL where a value is required,
   * a malformed database URL or setting). out_error says which. */
  SERVICE_INVALID_ARGUMENT = 2
} service_state;

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
 * Streamed responses (server-sent events) are not produced through this
 * interface: their status and headers are returned with an empty body.
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

/* Releases a response. Accepts NULL. */
SERVICE_C_API void service_response_destroy(service_response_t* response);

/* Stops the background workers after flushing queued work, closes the
 * database and releases the handle. Accepts NULL. */
SERVICE_C_API void service_close(service_t* service);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SERVICE_C_H_ */
