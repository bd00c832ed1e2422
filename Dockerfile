# The server's image (compose.yaml runs it; docs/deploy.md, "Containers"). Two stages: the wheel is built
# (the engine compiled) where a C compiler is, and installed with the server's dependencies in an image
# without one.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# a compiler error fails the build rather than leaving the engine pure Python (README, "Compiled or pure")
ENV CANASTA_COMPILE=require
RUN python -m pip install --no-cache-dir build \
    && python -m build --wheel \
    && python -m pip wheel --no-cache-dir -w /wheels "$(ls dist/canasta-*.whl)[server]"

FROM python:3.11-slim
RUN useradd --system --create-home --home-dir /srv/canasta canasta
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir --no-index --find-links /wheels 'canasta[server]' && rm -rf /wheels
USER canasta
WORKDIR /srv/canasta
# every `canasta serve` option can be set as CANASTA_<OPTION> (docs/deploy.md, "Environment variables")
ENV CANASTA_HOST=0.0.0.0 CANASTA_PORT=8000 PYTHONUNBUFFERED=1
EXPOSE 8000
# SIGTERM drains: /readyz fails, tables go to the other processes, clients are told to reconnect
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["canasta", "serve"]
