#!/usr/bin/env python3
"""A loopback TCP proxy that cuts the link once, mid-session.

It forwards 127.0.0.1:<free port> to the DSH host. When the `/api/events.mux`
connection has carried --cut-after bytes towards the client, it closes every
open connection and refuses new ones for --down seconds, then forwards again.
The chosen port is written to --port-file. Loopback only; stops on SIGTERM.
"""
import argparse
import asyncio
import signal
import sys
import time


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", required=True, help="http://127.0.0.1:PORT")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--cut-after", type=int, default=120_000)
    ap.add_argument("--down", type=float, default=1.0)
    args = ap.parse_args()
    host, port = args.target.removeprefix("http://").rstrip("/").rsplit(":", 1)
    if host not in ("127.0.0.1", "localhost", "::1", "[::1]"):
        sys.exit(f"proxy: refusing a non-loopback target {args.target}")
    state = {"cut": False, "down_until": 0.0, "conns": set()}

    def log(msg):
        print(f"proxy: {msg}", file=sys.stderr, flush=True)

    async def pipe(reader, writer, on_bytes=None):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
                if on_bytes:
                    on_bytes(len(data))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(creader, cwriter):
        if time.monotonic() < state["down_until"]:
            cwriter.close()
            return
        try:
            ureader, uwriter = await asyncio.open_connection(host.strip("[]"), int(port))
        except OSError:
            cwriter.close()
            return
        first = await creader.read(65536)
        is_mux = first.startswith(b"GET /api/events.mux")
        uwriter.write(first)
        counted = {"n": 0}

        def down_bytes(n):
            counted["n"] += n
            if is_mux and not state["cut"] and counted["n"] >= args.cut_after:
                state["cut"] = True
                state["down_until"] = time.monotonic() + args.down
                log(f"cutting every connection after {counted['n']} mux bytes")
                for w in list(state["conns"]):
                    w.transport.abort()

        state["conns"].update([cwriter, uwriter])
        try:
            await asyncio.gather(pipe(creader, uwriter), pipe(ureader, cwriter, down_bytes))
        except asyncio.CancelledError:
            pass
        finally:
            state["conns"].discard(cwriter)
            state["conns"].discard(uwriter)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    with open(args.port_file, "w") as f:
        f.write(str(server.sockets[0].getsockname()[1]))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()


asyncio.run(main())
