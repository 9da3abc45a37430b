-- The common in-flight (concurrency) limiter on a sorted set of leases, as Stripe's
-- concurrent-requests limiter and its copies keep it: run-out leases removed, the rest counted,
-- a new lease added while there is room.
-- KEYS[1] the leases zset (member a request id, score the lease's expiry in ms)
-- ARGV: limit, now_ms, lease_ms, request id, ttl_ms
-- Returns 1 granted, 0 refused.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
    redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[4])
    redis.call('PEXPIRE', KEYS[1], ARGV[5])
    return 1
end
return 0
