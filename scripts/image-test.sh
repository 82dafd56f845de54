#!/usr/bin/env bash
# The images on a real Docker engine: builds both, runs the green as AgentBeats does, and checks
# what a build cannot: the user, the read-only code, the health check (following the port), an
# assessment of the reference solver purple, SIGTERM mid-run giving partial results, the journal
# volume resuming that run after a restart, and `docker stop` of each image under 2 s (with the
# image's tini and with node as PID 1, as when a runner replaces the entrypoint).
#
#   scripts/image-test.sh                 # 3 minutes cold on 2 idle cores (8-9 when busy), 1 warm
#
# Needs: a Docker engine the docker CLI reaches (DOCKER_HOST), curl and jq, and free host ports
# GREEN_PORT (default 9009, as AgentBeats), PURPLE_PORT (9019) and LLM_PORT (9029). Containers use
# the host's network (--network host: the agents talk over loopback; nothing else is contacted).
# It removes its containers and volume at the end, keeps the images (entropic-crmarena:image-test,
# entropic-crmarena-purple-llm:image-test).
#
# Environment: NODE_IMAGE (a --build-arg for the base; see below), FETCH_DATA (default 0: the
# bundled sample, so no download; 1 bakes the real CRMArena-Pro data in, as the published image),
# TASKS (tasks in the SIGTERM run, default 44: all of the sample), BUILD_ARGS (more docker build
# arguments).
#
# A machine without registry access (like the development machines) cannot pull the base image,
# so it needs a locally built stand-in under the base's tag, and an engine to run:
#   apt-get update && apt-get install -y docker.io debootstrap jq
#   mkdir -p /tmp/docker && dockerd --data-root /tmp/docker/root --exec-root /tmp/docker/exec \
#     --pidfile /tmp/docker/dockerd.pid -H unix:///tmp/docker/docker.sock --storage-driver=overlay2 \
#     --iptables=false --ip6tables=false --bridge=none >/tmp/docker/dockerd.log 2>&1 &
#   export DOCKER_HOST=unix:///tmp/docker/docker.sock
#   scripts/stand-in-base-image.sh                         # node:26.9.0-bookworm-slim, about 1 minute
#   NODE_IMAGE=node:26.9.0-bookworm-slim scripts/image-test.sh
#   kill "$(cat /tmp/docker/dockerd.pid)"                  # when done
# (NODE_IMAGE names the stand-in by its tag: FROM with a digest would try to pull.)
set -euo pipefail
cd "$(dirname "$0")/.."

GREEN=entropic-crmarena:image-test
PURPLE_LLM=entropic-crmarena-purple-llm:image-test
GREEN_PORT=${GREEN_PORT:-9009}
PURPLE_PORT=${PURPLE_PORT:-9019}
LLM_PORT=${LLM_PORT:-9029}
FETCH_DATA=${FETCH_DATA:-0}
TASKS=${TASKS:-44}
VOLUME=entropic-image-test-$$
PREFIX=entropic-image-test-$$
passed=0
failed=0

now() { date +%s%N; }
ms_since() { echo $((($(now) - $1) / 1000000)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1
  shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}
cleanup() {
  docker rm -f $(docker ps -aq --filter "name=^$PREFIX-") >/dev/null 2>&1 || true
  docker volume rm -f "$VOLUME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

for tool in docker curl jq; do command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 2; }; done
docker info >/dev/null 2>&1 || { echo "no Docker engine answers (DOCKER_HOST=${DOCKER_HOST:-unset}); see this script's header" >&2; exit 2; }
for port in "$GREEN_PORT" "$PURPLE_PORT" "$LLM_PORT"; do
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then echo "port $port is in use on this host; set GREEN_PORT, PURPLE_PORT or LLM_PORT" >&2; exit 2; fi
done
echo "engine: $(docker version --format 'server {{.Server.Version}}, client {{.Client.Version}}')"

echo "== build"
build_args=(--network host --platform linux/amd64 --build-arg "FETCH_DATA=$FETCH_DATA")
[ -n "${NODE_IMAGE:-}" ] && build_args+=(--build-arg "NODE_IMAGE=$NODE_IMAGE")
# shellcheck disable=SC2206 # BUILD_ARGS is a list of words
build_args+=(${BUILD_ARGS:-})
for target in green purple-llm; do
  tag=$([ "$target" = green ] && echo "$GREEN" || echo "$PURPLE_LLM")
  started=$(now)
  if docker build "${build_args[@]}" --target "$target" -t "$tag" . >"/tmp/$PREFIX-build-$target.log" 2>&1; then
    ok "build $target in $(($(ms_since "$started") / 1000)) s: $tag, $(docker image inspect --format '{{.Size}}' "$tag" | awk '{ printf "%d MB", $1 / 1000000 }')"
  else
    tail -30 "/tmp/$PREFIX-build-$target.log"
    bad "build $target (log: /tmp/$PREFIX-build-$target.log)"
    exit 1
  fi
done
rm -f /tmp/$PREFIX-build-*.log

echo "== what the images are"
for tag in "$GREEN" "$PURPLE_LLM"; do
  check "$tag runs as the numeric user 1000:1000" test "$(docker image inspect --format '{{.Config.User}}' "$tag")" = 1000:1000
  check "$tag starts under tini" test "$(docker image inspect --format '{{index .Config.Entrypoint 0}}' "$tag")" = /usr/bin/tini
  check "$tag has a health check" test "$(docker image inspect --format '{{json .Config.Healthcheck.Test}}' "$tag")" = '["CMD","node","/usr/local/lib/entropic-crmarena/healthcheck.mjs"]'
  echo "     $tag: Node.js $(docker run --rm --network none --entrypoint node "$tag" --version)"
  check "$tag: the code is not writable by the agent" docker run --rm --network none --entrypoint sh "$tag" -c \
    '! touch /app/node_modules/entropic-crmarena/dist/cli.js 2>/dev/null && ! touch /app/node_modules/entropic-crmarena/data/x 2>/dev/null && ! touch /app/x 2>/dev/null'
  check "$tag: no npm in the run-time image" docker run --rm --network none --entrypoint sh "$tag" -c '! command -v npm'
done
check "the green keeps its journals on a volume" test "$(docker image inspect --format '{{json .Config.Volumes}}' "$GREEN")" = '{"/var/lib/entropic":{}}'
check "the green can write there" docker run --rm --network none --entrypoint sh "$GREEN" -c 'touch /var/lib/entropic/runs/x /var/lib/entropic/judgements/x'
check "the green carries the data's licence and attribution" docker run --rm --network none --entrypoint sh "$GREEN" -c 'grep -q "CC BY-NC 4.0" /app/NOTICE && grep -q "arXiv:2505.18878" /app/NOTICE'
check "the purple image holds no dataset" docker run --rm --network none --entrypoint sh "$PURPLE_LLM" -c '! ls /app/node_modules/entropic-crmarena/data/cache/* 2>/dev/null && ! test -e /app/NOTICE'
if [ "$FETCH_DATA" = 1 ]; then
  check "the green holds the real data" docker run --rm --network none --entrypoint sh "$GREEN" -c 'test -s /app/node_modules/entropic-crmarena/data/cache/tasks_b2b.json && test -s /app/node_modules/entropic-crmarena/data/cache/crmarenapro_b2b_data.db'
fi
history=$(docker history --no-trunc --format '{{.CreatedBy}}' "$GREEN")
# (the classic builder writes "COPY dir:... in /app/...", BuildKit "COPY /data/ /app/... # buildkit")
data_layer=$(grep -n 'COPY .*/app/node_modules/entropic-crmarena/data/cache/ *\(# buildkit\)\? *$' <<<"$history" | head -1 | cut -d: -f1 || true)
code_layer=$(grep -n 'COPY .* /app *\(# buildkit\)\? *$' <<<"$history" | head -1 | cut -d: -f1 || true)
# docker history lists the newest layer first: the data layer must come after (below) the code one.
check "the green's data layer lies under its code layer (a code change keeps it)" test "${data_layer:-0}" -gt "${code_layer:-999}"

echo "== run: the solver purple, the green as AgentBeats runs it"
# The reference solver purple, from the green image (the same package).
docker run -d --name "$PREFIX-purple" --network host --read-only --cap-drop ALL --security-opt no-new-privileges \
  --entrypoint /usr/bin/tini "$GREEN" -- entropic-crmarena purple --strategy solver --host 127.0.0.1 --port "$PURPLE_PORT" >/dev/null
start_green() {
  docker run -d --name "$PREFIX-green" --network host --read-only --cap-drop ALL --security-opt no-new-privileges \
    -v "$VOLUME:/var/lib/entropic" -e LOG_LEVEL=warn \
    "$GREEN" --host 0.0.0.0 --port "$GREEN_PORT" --card-url http://green-agent:9009 >/dev/null
}
healthy() { # healthy CONTAINER: waits up to 90 s for the health check to pass, prints how long it took
  local started
  started=$(now)
  for _ in $(seq 1 180); do
    case $(docker inspect --format '{{.State.Health.Status}}' "$1") in
    healthy)
      echo "$(ms_since "$started") ms"
      return 0
      ;;
    unhealthy) break ;;
    esac
    sleep 0.5
  done
  docker inspect --format '{{json .State.Health}}' "$1" >&2
  docker logs --tail 20 "$1" >&2
  return 1
}
green_started=$(now)
start_green
if took=$(healthy "$PREFIX-purple"); then ok "the solver purple is healthy on port $PURPLE_PORT (its health check followed --port) after $took"; else bad "the solver purple never got healthy"; fi
if healthy "$PREFIX-green" >/dev/null; then ok "the green is healthy $(ms_since "$green_started") ms after docker run (--host 0.0.0.0 --port $GREEN_PORT --card-url http://green-agent:9009)"; else
  bad "the green never got healthy"
  exit 1
fi
card=$(curl -fsS "http://127.0.0.1:$GREEN_PORT/.well-known/agent-card.json")
check "the card advertises the --card-url: $(jq -r .url <<<"$card")" test "$(jq -r .url <<<"$card" | sed 's|/$||')" = http://green-agent:9009

request() { # request TASK_LIMIT: the assessment request as AgentBeats sends it (message/stream)
  jq -cn --arg purple "http://127.0.0.1:$PURPLE_PORT/" --argjson limit "$1" '{
    jsonrpc: "2.0", id: 1, method: "message/stream",
    params: { message: { kind: "message", role: "user", messageId: "image-test-\($limit)",
      parts: [{ kind: "text", text: ({ participants: { agent: $purple }, config: { task_limit: $limit, concurrency: 1, drift_level: "medium", rot_level: "medium" } } | tojson) }] } } }'
}
stream() { # stream TASK_LIMIT FILE: posts the request, writes the events (one JSON-RPC result a line)
  curl -sN --max-time 600 "http://127.0.0.1:$GREEN_PORT/" -H 'content-type: application/json' -d "$(request "$1")" |
    sed -n 's/^data: //p' | jq -c '.result // .error' >"$2"
}
results_of() { jq -s '[.[] | select(.kind == "artifact-update") | .artifact.parts[] | select(.kind == "data") | .data] | last' "$1"; }
final_state() { jq -rs '[.[] | select(.kind == "status-update" and .final == true)] | last | .status.state' "$1"; }

echo "== an assessment"
events=/tmp/$PREFIX-complete.jsonl
started=$(now)
stream 4 "$events"
results=$(results_of "$events")
check "a 4-task assessment completes ($(ms_since "$started") ms): $(jq -c '{status, total_tasks: .summary.total_tasks, passed: .summary.total_passed, dataset}' <<<"$results")" \
  test "$(final_state "$events")/$(jq -r '"\(.status)/\(.summary.total_tasks)"' <<<"$results")" = completed/completed/4
check "the solver passes every one" test "$(jq -r .summary.total_passed <<<"$results")" = 4

echo "== SIGTERM mid-run"
events=/tmp/$PREFIX-interrupted.jsonl
stream "$TASKS" "$events" &
client=$!
journal_episodes() { docker exec "$PREFIX-green" sh -c 'cat /var/lib/entropic/runs/*.jsonl 2>/dev/null | grep -c "\"kind\":\"episode\""' || true; }
# The second run's journal: the 4-task run has its own, so count past its 4 episodes.
for _ in $(seq 1 600); do
  [ "$(journal_episodes)" -ge 6 ] && break
  sleep 0.05
done
done_before=$(($(journal_episodes) - 4))
term_sent=$(now)
docker kill --signal TERM "$PREFIX-green" >/dev/null
wait "$client" || true
answered=$(ms_since "$term_sent")
docker wait "$PREFIX-green" >/dev/null
exited=$(ms_since "$term_sent")
code=$(docker inspect --format '{{.State.ExitCode}}' "$PREFIX-green")
results=$(results_of "$events")
partial=$(jq -r .summary.total_tasks <<<"$results")
echo "     SIGTERM after $done_before of $TASKS episodes were journalled; the final event came $answered ms later, the container exited $exited ms later with code $code"
check "the run ends with its partial results: state $(final_state "$events"), $(jq -c '{status, total_tasks: .summary.total_tasks, passed: .summary.total_passed}' <<<"$results")" \
  test "$(final_state "$events")/$(jq -r .status <<<"$results")" = failed/interrupted
check "the partial results hold the finished episodes ($partial, at least the $done_before journalled before SIGTERM, fewer than $TASKS)" \
  test "$partial" -ge "$done_before" -a "$partial" -lt "$TASKS"
check "the message says it resumes" grep -q 'resumes it from its journal' "$events"
check "the green stopped by itself (exit code 0) within 10 s of SIGTERM" test "$code" = 0 -a "$exited" -lt 10000

echo "== a restarted container resumes from its volume"
docker rm "$PREFIX-green" >/dev/null
start_green
healthy "$PREFIX-green" >/dev/null || bad "the restarted green never got healthy"
events=/tmp/$PREFIX-resumed.jsonl
stream "$TASKS" "$events"
results=$(results_of "$events")
check "the same request completes the run: $(jq -c '{status, total_tasks: .summary.total_tasks, passed: .summary.total_passed}' <<<"$results")" \
  test "$(final_state "$events")/$(jq -r '"\(.status)/\(.summary.total_tasks)"' <<<"$results")" = "completed/completed/$TASKS"
episodes=$(journal_episodes)
check "no episode ran twice: the journals hold $episodes episodes (4 + $TASKS)" test "$episodes" = $((4 + TASKS))

echo "== docker stop"
stop_time() { # stop_time CONTAINER: docker stop (10 s before SIGKILL), in ms
  local started
  started=$(now)
  docker stop "$1" >/dev/null
  ms_since "$started"
}
stop_check() { # stop_check WHAT CONTAINER
  local took code
  took=$(stop_time "$2")
  code=$(docker inspect --format '{{.State.ExitCode}}' "$2")
  check "docker stop of $1: $took ms, exit code $code" test "$took" -lt 2000 -a "$code" != 137
}
docker run -d --name "$PREFIX-llm" --network host --read-only --cap-drop ALL --security-opt no-new-privileges -e PURPLE_LLM_API_KEY=unused -e PURPLE_LLM_BASE_URL=http://127.0.0.1:9/v1 \
  "$PURPLE_LLM" --port "$LLM_PORT" >/dev/null
if took=$(healthy "$PREFIX-llm"); then ok "the LLM purple is healthy on port $LLM_PORT (given after the entrypoint's --port 9009) after $took"; else bad "the LLM purple never got healthy"; fi
stop_check "the green image (green, idle after its runs)" "$PREFIX-green"
stop_check "the green image (the solver purple)" "$PREFIX-purple"
stop_check "the purple-llm image" "$PREFIX-llm"
# As when a runner (Amber) replaces the entrypoint: node is PID 1, no tini.
docker rm -f "$PREFIX-green" "$PREFIX-llm" >/dev/null
docker run -d --name "$PREFIX-green" --network host --read-only -v "$VOLUME:/var/lib/entropic" --entrypoint entropic-crmarena "$GREEN" serve --host 0.0.0.0 --port "$GREEN_PORT" >/dev/null
docker run -d --name "$PREFIX-llm" --network host --read-only -e PURPLE_LLM_API_KEY=unused --entrypoint entropic-crmarena "$PURPLE_LLM" purple --strategy llm --host 0.0.0.0 --port "$LLM_PORT" >/dev/null
healthy "$PREFIX-green" >/dev/null && healthy "$PREFIX-llm" >/dev/null || bad "the agents as PID 1 never got healthy"
check "node is PID 1 there" test "$(docker exec "$PREFIX-llm" cat /proc/1/cmdline | tr '\0' ' ' | cut -d' ' -f1)" = node
stop_check "the green image, node as PID 1" "$PREFIX-green"
stop_check "the purple-llm image, node as PID 1" "$PREFIX-llm"
rm -f /tmp/$PREFIX-*.jsonl

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
