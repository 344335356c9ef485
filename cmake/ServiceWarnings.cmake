# Warnings for project code only (third-party headers are included as SYSTEM).
add_library(service_warnings INTERFACE)
target_compile_options(service_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
# GCC 12 at -O3 reports std::string concatenation in libstdc++'s own headers
# as overlapping memcpy (GCC bug 105329, a false positive): off for GCC.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(service_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()
# With precompiled headers GCC 12 reports its middle-end warnings inside
# libstdc++'s own headers (which are system headers without the PCH): the
# std::string and std::optional false positives of GCC bugs 105329 and
# 105651. Off for GCC with precompiled headers; the clang build of CI keeps
# its own checks.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND SERVICE_PRECOMPILED_HEADERS)
  target_compile_options(service_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-array-bounds -Wno-maybe-uninitialized -Wno-stringop-overflow -Wno-stringop-overread>)
endif()
if(SERVICE_WERROR)
  target_compile_options(service_warnings INTERFACE -Werror)
endif()
if(SERVICE_THREAD_SAFETY_ANALYSIS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SERVICE_THREAD_SAFETY_ANALYSIS needs Clang")
  endif()
  target_compile_options(service_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wthread-safety -Werror=thread-safety>)
endif()
if(SERVICE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(SERVICE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SERVICE_FUZZ needs Clang (libFuzzer ships with it)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
