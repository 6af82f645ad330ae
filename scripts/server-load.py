#!/usr/bin/env python3
"""A bounded loopback load for scripts/server-test.sh, check (h).

server-load.py PORT PATH SECONDS WORKERS

WORKERS threads send GET PATH to 127.0.0.1:PORT for SECONDS, or until
SIGINT (each finishes the request it is in), each request on a new
connection (Connection: close), and sort every request into one of:

  answered 2xx   a complete response with a 2xx status;
  answered other a complete response with another status;
  lost           connected and sent, then the connection ended (closed or
                 reset) before a complete response: a request the server
                 accepted and did not answer; or reset (or timed out) while
                 connecting, after the kernel had taken the connection;
  refused        the connection was refused: the server had closed its
                 listener, so it never accepted the request.

Prints the four counts on one line, "answered_2xx=N answered_other=N
lost=N refused=N", and the first few lost requests' errors.
"""
import signal
import socket
import sys
import threading
import time

port, path, seconds, workers = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
counts = {"answered_2xx": 0, "answered_other": 0, "lost": 0, "refused": 0}
lost_errors = []
lock = threading.Lock()
stop = threading.Event()


def complete(response: bytes) -> bool:
    """Whether `response` is a whole HTTP response (headers, then the body
    its Content-Length says, or chunks up to the last)."""
    head, sep, body = response.partition(b"\r\n\r\n")
    if not sep:
        return False
    headers = head.lower()
    for line in headers.split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return len(body) >= int(line.split(b":", 1)[1])
    if b"transfer-encoding: chunked" in headers:
        return body.endswith(b"0\r\n\r\n")
    return True  # no body length: ends at close, which has come


def one_request() -> str:
    try:
        connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    except ConnectionRefusedError:
        return "refused"
    except OSError as error:
        # Reset or timed out while connecting: the kernel had taken the
        # connection (a refused one is the case above), so it counts as
        # lost, never as nothing.
        with lock:
            lost_errors.append(f"{type(error).__name__}: {error} while connecting")
        return "lost"
    response = b""
    try:
        with connection:
            connection.sendall(request)
            while chunk := connection.recv(65536):
                response += chunk
    except OSError as error:
        with lock:
            lost_errors.append(f"{type(error).__name__}: {error} after {len(response)} bytes")
        return "lost"
    if not complete(response):
        with lock:
            lost_errors.append(f"connection closed after {len(response)} bytes, no complete response")
        return "lost"
    status = response.split(b" ", 2)[1]
    return "answered_2xx" if status.startswith(b"2") else "answered_other"


def worker(deadline: float) -> None:
    while time.monotonic() < deadline and not stop.is_set():
        outcome = one_request()
        with lock:
            counts[outcome] += 1
        if outcome == "refused":
            time.sleep(0.01)


# A load started in the background by a script inherits SIGINT ignored;
# this handler replaces that, so the script can end the load when it is done.
signal.signal(signal.SIGINT, lambda *_: stop.set())
deadline = time.monotonic() + seconds
threads = [threading.Thread(target=worker, args=(deadline,)) for _ in range(workers)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(" ".join(f"{key}={value}" for key, value in counts.items()))
for error in lost_errors[:5]:
    print(f"lost: {error}")
