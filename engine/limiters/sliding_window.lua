-- Multi-rule sliding-window log, one decision. A request passes only if for every rule the
-- permits granted in (now - window_ms, now] plus its own stay within the rule's limit.
-- KEYS[1] log zset {<name>}:log[:<client>]: one member per grant, score = grant time (ms),
--         member "<total>:<permits>": total = the permits this log has granted so far including
--         this grant, 15 digits zero-padded (unique, and ordered like the grants even within one
--         millisecond), permits = this grant's
-- ARGV: permits, now_ms, ttl_ms, rule count, then limit and window_ms per rule
-- Returns {allowed, retry_after_ms, remaining, at_ms, 0}.
--
-- Cost: O(log n) per rule, whatever the permits of a request (one member per grant): the
-- permits inside a window are the running total of the newest grant minus the running total
-- before the oldest grant inside the window.
local permits = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local ruleCount = tonumber(ARGV[4])

local function bad()
    return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a ratelab sliding log')
end

-- "<total>:<permits>" -> total, permits (nil when the member is not one of ours)
local function parse(member)
    local colon = string.find(member, ':', 1, true)
    if colon == nil then
        return nil, nil
    end
    return tonumber(string.sub(member, 1, colon - 1)), tonumber(string.sub(member, colon + 1))
end

-- Time never runs backwards for this log: a worker whose clock lags decides at the time of the
-- newest grant, so grants trimmed by a later decision cannot be missing from its count. Only
-- grants trim, and a grant is recorded at the time it trimmed at: the newest grant is the clock.
local total = 0
local newestAt = nil
local newest = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')
if newest[1] then
    total = parse(newest[1])
    newestAt = tonumber(newest[2])
    if total == nil then
        return bad()
    end
    if newestAt > now then
        now = newestAt
    end
end

local remaining = nil
local retry = 0
local violated = false
local tooLarge = false
local longest = 0
for r = 1, ruleCount do
    local limit = tonumber(ARGV[3 + 2 * r])
    local window = tonumber(ARGV[4 + 2 * r])
    longest = math.max(longest, window)
    local from = '(' .. string.format('%d', now - window)
    local count = 0
    local first = nil
    if total > 0 then
        -- The oldest grant inside the window: everything granted after it, it included, counts.
        first = redis.call('zrangebyscore', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
        if first[1] then
            local t, p = parse(first[1])
            if t == nil or p == nil then
                return bad()
            end
            count = total - (t - p)
        end
    end
    if remaining == nil or limit - count < remaining then
        remaining = limit - count
    end
    if permits > limit then
        tooLarge = true
    elseif count + permits > limit then
        violated = true
        -- The k-th oldest permit in the window must leave it before this request fits: walk the
        -- grants from the oldest inside the window until they hold k permits.
        local k = count + permits - limit
        local base = total - count
        local t, p = parse(first[1])
        local at = tonumber(first[2])
        local offset = 1
        while t - base < k do
            local want = math.min(k - (t - base), 128)
            local more = redis.call('zrangebyscore', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT',
                                    offset, want)
            if #more == 0 then
                return bad()
            end
            for i = 1, #more, 2 do
                t, p = parse(more[i])
                if t == nil then
                    return bad()
                end
                at = tonumber(more[i + 1])
                if t - base >= k then
                    break
                end
            end
            offset = offset + #more / 2
        end
        retry = math.max(retry, at + window - now)
    end
end

if tooLarge then
    return {0, -1, remaining, now, 0}
end
if violated then
    return {0, retry, remaining, now, 0}
end

-- Grants at or before now - longest window are outside every rule's window. Trimming costs a
-- call, so it happens when the whole log is stale or once per 64 permits granted; counts never
-- depend on it.
if newestAt and (newestAt <= now - longest or
                 math.floor(total / 64) ~= math.floor((total + permits) / 64)) then
    redis.call('zremrangebyscore', KEYS[1], '-inf', now - longest)
end
redis.call('zadd', KEYS[1], now, string.format('%015d:%d', total + permits, permits))
redis.call('pexpire', KEYS[1], ARGV[3])
return {1, 0, remaining - permits, now, 0}
