#!/usr/bin/env sh
# Collects pod status, recent events and previous logs for every unhealthy pod in a namespace.
ns="${1:-default}"
kubectl get pods -n "$ns" -o wide
kubectl get events -n "$ns" --sort-by=.lastTimestamp | tail -n 30
for pod in $(kubectl get pods -n "$ns" --no-headers | awk '$3 != "Running" && $3 != "Completed" {print $1}'); do
  echo "== $pod"
  kubectl logs -n "$ns" "$pod" --previous --tail=50 2>/dev/null
done
