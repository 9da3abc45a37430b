-- A sliding-window log the way many teams first write it: one sorted-set member per grant,
-- scored by its time, and the member is the time too. Two grants in the same millisecond
-- write the same member, so the log keeps one of them: the next requests see room that is not
-- there, and a burst within one millisecond passes the limit.
--
-- KEYS[1]  the log of one client
-- ARGV[1]  now, ms          ARGV[2]  limit          ARGV[3]  window, ms
-- Reply: {allowed (1 or 0), remaining, retry_after_ms}
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
    redis.call('ZADD', key, now, now)  -- the flaw: same-millisecond grants share one member
    redis.call('PEXPIRE', key, window)
    return {1, limit - count - 1, 0}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, 0, tonumber(oldest[2]) + window - now}
