-- The sliding-window counter as @upstash/ratelimit v2 decides it (its single-region
-- slidingWindow script, line for line), with the engine's now: per window i = floor(now / W) a
-- counter; the previous window's count weighted by (1 - (now mod W) / W) in double precision and
-- floored; refused iff that plus the current count reaches the limit (the request's permits are
-- not part of the check); a grant INCRBYs the permits.
-- KEYS[1] {<name>}:up:<i>[:<client>], KEYS[2] the same for window i - 1
-- ARGV: limit, now_ms, window_ms, permits, ttl_ms (the library's window * 2 + 1000, stretched as
--       every ratelab TTL is for a clock that stands still or runs slow)
-- Returns what the decision saw, for the engine (remaining, the wait and the reason): the two
-- windows' counts before the request, packed as 2 * (cur * 2^25 + prev) when granted and
-- -(that) - 1 when refused, or the text "<allowed> <cur> <prev>" for counts of 2^25 or more.
local tokens = tonumber(ARGV[1])
local now = ARGV[2]
local window = ARGV[3]
local incrementBy = ARGV[4]

local requestsInCurrentWindow = redis.call('GET', KEYS[1])
if requestsInCurrentWindow == false then
    requestsInCurrentWindow = 0
end
local requestsInPreviousWindow = redis.call('GET', KEYS[2])
if requestsInPreviousWindow == false then
    requestsInPreviousWindow = 0
end
local prev = requestsInPreviousWindow + 0  -- the count itself, for the reply
local percentageInCurrent = (now % window) / window
requestsInPreviousWindow = math.floor((1 - percentageInCurrent) * requestsInPreviousWindow)
local cur = requestsInCurrentWindow + 0
local allowed = requestsInPreviousWindow + requestsInCurrentWindow < tokens
if allowed then
    local newValue = redis.call('INCRBY', KEYS[1], incrementBy)
    if newValue == tonumber(incrementBy) then
        redis.call('PEXPIRE', KEYS[1], ARGV[5])
    end
end
if cur < 33554432 and prev < 33554432 then
    local packed = 2 * (cur * 33554432 + prev)
    return allowed and packed or -packed - 1
end
return string.format('%d %d %d', allowed and 1 or 0, cur, prev)
