/* api/conn.h: one HTTP connection's record, from its accept to its close
 * (http.c makes, tracks and frees it).  The call it waits for (call.c)
 * and the body it is being sent (reply.c) hang from it: each sets its own
 * pointer while it lives and clears it when it ends; when the connection
 * goes first, http.c ends them (http_call_abandon, http_sliced_abandon).
 * Private to api/. */
#ifndef WARMBOX_API_CONN_H
#define WARMBOX_API_CONN_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct sched_http;
struct http_call;
struct http_sliced;
struct http_intake;
struct bufferevent;
struct evhttp_connection;

/* It owns the connection's close callback (an execution in flight hears
 * of the close through it) and the deadline by which the next request
 * must have arrived whole: a client that trickles its headers (slow
 * loris) or never finishes its TLS handshake is cut off, while one whose
 * request is being handled is not.
 *
 * evhttp names the connection (evcon) only with its first request; until
 * then the record holds a reference on the bufferevent it made, so the
 * pointer stays ours.  evhttp clears a bufferevent's callbacks when it
 * frees it: the sweep drops the reference of such a record, closing the
 * socket (a connection that ended without a request lingers at most one
 * sweep). */
typedef struct http_conn
{
  struct sched_http *h;
  struct http_conn *prev, *next;
  struct bufferevent *bev;         /* referenced, until evcon is known */
  struct evhttp_connection *evcon; /* from its first request on */
  uint64_t deadline_ms;            /* 0: a request is being handled */
  bool cut;                        /* its deadline passed: shut down */
  struct http_call *call;          /* the execution its request waits for */
  struct http_sliced *sliced;      /* the body it is being sent a slice at a time */
  /* An answered call's owner, still counted in flight until its answer
   * is written (or the connection ends): a reader that stalls holds its
   * owner's slot, not the daemon's memory for nothing. */
  char release_owner[80];
  /* Its client's address (TCP), known from its first request on; "" on a
   * Unix socket.  refused: over a connection cap, closed after its answer. */
  char peer[INET6_ADDRSTRLEN];
  bool admitted, counted, refused;
  struct http_intake *intake; /* its filter (NULL: evhttp made the connection without one) */
} http_conn_t;

#endif
