# syntax=docker/dockerfile:1
# service-server in a container (docs/operations.md "Containers").
#
#   docker build -t service-server .
#   docker run -d --name service -p 8080:8080 -v service-data:/var/lib/service-server service-server
#
# Stage 1 builds the server on Debian 12 with the build dependencies of
# scripts/install-deps.sh and makes the Debian package (cpack -G DEB). Stage 2
# installs that package on a slim Debian 12: apt pulls exactly the runtime
# libraries its Depends name (found by dpkg-shlibdeps), no compiler, no -dev
# package. The server runs as the package's system user "service"; its data
# (SQLite database, evidence files) lives in the volume /var/lib/service-server.

FROM debian:12 AS build
WORKDIR /src
# The dependency layer stays cached until install-deps.sh changes.
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN apt-get update \
 && scripts/install-deps.sh \
 && rm -rf /var/lib/apt/lists/*
COPY . .
# Release build of the library and the server only (no tests, benchmarks or
# examples); both optional backends required so a missing package fails here.
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DSERVICE_BUILD_TESTS=OFF -DSERVICE_BUILD_BENCH=OFF -DSERVICE_BUILD_EXAMPLES=OFF \
      -DSERVICE_REQUIRE_POSTGRES=ON -DSERVICE_REQUIRE_CURL=ON \
 && cmake --build /build \
 && cd /build && cpack -G DEB -B /out \
 && mv /out/service-server_*.deb /out/service-server.deb

FROM debian:12-slim AS runtime
COPY --from=build /out/service-server.deb /tmp/service-server.deb
# curl: the HEALTHCHECK below (libcurl is a dependency of the server anyway).
# The package's postinst generates secrets into /etc/service-server/secrets for
# systemd; an image must not carry them (every container would share them):
# removed, so each database generates and keeps its own unless SERVICE_JWT_SECRET
# and SERVICE_SECRETS_KEY are passed to the container.
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/service-server.deb curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* /tmp/service-server.deb /etc/service-server/secrets

# The settings (docs/configuration.md); pass more with -e or --env-file (the
# format of /etc/service-server/environment).
ENV SERVICE_LISTEN=0.0.0.0:8080 \
    SERVICE_DATABASE_URL=sqlite:/var/lib/service-server/service.db \
    SERVICE_ENV=production
VOLUME /var/lib/service-server
WORKDIR /var/lib/service-server
USER service:service
EXPOSE 8080
# SIGTERM: stop accepting, finish in-flight requests (at most 10 s), exit 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS -o /dev/null http://127.0.0.1:8080/v1/health || exit 1
ENTRYPOINT ["/usr/bin/service-server"]
