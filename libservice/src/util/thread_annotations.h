// Clang's thread-safety analysis attributes (-Wthread-safety), in the style
// of leveldb's port/thread_annotations.h and abseil's. Under other compilers
// they expand to nothing. Use them with the annotated util::Mutex family
// (util/mutex.h): libstdc++'s std::mutex carries no annotations.
#pragma once

#if defined(__clang__)
#define SV_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define SV_THREAD_ANNOTATION(x)
#endif

#define SV_CAPABILITY(x) SV_THREAD_ANNOTATION(capability(x))
#define SV_SCOPED_CAPABILITY SV_THREAD_ANNOTATION(scoped_lockable)
#define SV_GUARDED_BY(x) SV_THREAD_ANNOTATION(guarded_by(x))
#define SV_PT_GUARDED_BY(x) SV_THREAD_ANNOTATION(pt_guarded_by(x))
#define SV_ACQUIRED_AFTER(...) SV_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define SV_REQUIRES(...) SV_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define SV_REQUIRES_SHARED(...) SV_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define SV_ACQUIRE(...) SV_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define SV_ACQUIRE_SHARED(...) SV_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define SV_RELEASE(...) SV_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define SV_RELEASE_SHARED(...) SV_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define SV_RELEASE_GENERIC(...) SV_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define SV_EXCLUDES(...) SV_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define SV_ASSERT_CAPABILITY(x) SV_THREAD_ANNOTATION(assert_capability(x))
#define SV_RETURN_CAPABILITY(x) SV_THREAD_ANNOTATION(lock_returned(x))
#define SV_NO_THREAD_SAFETY_ANALYSIS SV_THREAD_ANNOTATION(no_thread_safety_analysis)
