-- Multi-rule sliding-window log, one decision. A request passes only if for every rule the
-- permits granted in (now - window_ms, now] plus its own stay within the rule's limit.
-- KEYS[1] log zset {<name>}:log[:<client>]: one member per granted permit, score = grant
--         time (ms), member "<request id>:<i>" (unique even within one millisecond)
-- KEYS[2] clock {<name>}:clock[:<client>]: the latest time this log decided at
-- ARGV: permits, now_ms, request id, ttl_ms, rule count, then limit and window_ms per rule
-- Returns {allowed, retry_after_ms, remaining, at_ms, 0}.
local permits = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local ruleCount = tonumber(ARGV[5])

-- Time never runs backwards for this log: a worker whose clock lags decides at the latest time
-- already used, so entries trimmed by a later decision cannot be missing from its count.
local last = redis.call('get', KEYS[2])
if last then
    last = tonumber(last)
    if last == nil then
        return redis.error_reply('ratelab: ' .. KEYS[2] .. ' does not hold a number')
    end
    if last > now then
        now = last
    end
end
redis.call('set', KEYS[2], string.format('%d', now), 'PX', ARGV[4])

local longest = 0
for r = 1, ruleCount do
    longest = math.max(longest, tonumber(ARGV[5 + 2 * r]))
end
-- Grants at or before now - longest window are outside every rule's window.
redis.call('zremrangebyscore', KEYS[1], '-inf', now - longest)

local remaining = nil
local retry = 0
local violated = false
local tooLarge = false
for r = 1, ruleCount do
    local limit = tonumber(ARGV[4 + 2 * r])
    local window = tonumber(ARGV[5 + 2 * r])
    local from = '(' .. string.format('%d', now - window)
    local count = redis.call('zcount', KEYS[1], from, '+inf')
    if remaining == nil or limit - count < remaining then
        remaining = limit - count
    end
    if permits > limit then
        tooLarge = true
    elseif count + permits > limit then
        violated = true
        -- The k-th oldest permit in the window must leave it before this request fits.
        local k = count + permits - limit
        local kth = redis.call('zrangebyscore', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT',
                               k - 1, 1)
        retry = math.max(retry, tonumber(kth[2]) + window - now)
    end
end

if tooLarge then
    return {0, -1, remaining, now, 0}
end
if violated then
    return {0, retry, remaining, now, 0}
end

local members = {}
for i = 1, permits do
    members[#members + 1] = now
    members[#members + 1] = ARGV[3] .. ':' .. i
    if #members >= 1000 or i == permits then
        redis.call('zadd', KEYS[1], unpack(members))
        members = {}
    end
end
redis.call('pexpire', KEYS[1], ARGV[4])
return {1, 0, remaining - permits, now, 0}
