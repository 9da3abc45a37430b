-- Multi-rule sliding-window log, one decision. A request passes only if for every rule the
-- permits granted in (now - window_ms, now] plus its own stay within the rule's limit.
-- KEYS[1] log zset {<name>}:log[:<client>]: one member per granted permit, score = grant time
--         (ms), member "<time><request id>" for a grant of one permit, "<time><request
--         id>:<i>" for the i-th permit of a larger one (unique even within one millisecond),
--         <time> the grant time in 16 characters ("%016d": every time the engine forms fits)
-- ARGV: permits, now_ms, "<time><request id>" (12 random hex digits; with Redis's time the id
--       alone), ttl_ms, trim cutoff, then per rule: limit, "(<now - window_ms>" (a refusal's
--       wait, the grant's time + window_ms - now, is the grant's time - (now - window_ms):
--       every ARGV element costs Redis 200 to 1,300 instructions to build the table from)
-- Returns one packed integer (Limiter::parseReply, radix = the largest limit + 2): granted
-- 2 * remaining, refused -(2 * ((retry_after_ms + 1) * radix + remaining)) - 1; with Redis's
-- time (the engine does not know at_ms), a negative remaining (limits lowered under a full log)
-- or a value past 2^53 the text "allowed retry_after_ms remaining at_ms 0".
-- With R >= 2 rules the reply also names the deciding rule d (0-based: for a refusal the
-- violated rule with the largest wait, ties to the lowest index, or the first rule the permits
-- exceed; for a grant the rule with the least room left, ties to the lowest index) and, for a
-- refusal, its count c: granted 2 * (remaining * R + d), refused
-- -(2 * ((((retry_after_ms + 1) * radix + remaining) * radix + c) * R + d)) - 1; the text
-- "allowed retry_after_ms remaining at_ms 0 0 d c". (A grant's c is the engine's: limit_d -
-- remaining - permits.)
--
-- Cost: one ZCOUNT per rule (an integer reply), a ZADD and a PTTL per grant, a ZRANGE of one
-- member per violated rule. The member carries its grant's time: a reply WITH SCORES is a
-- double Redis formats with printf, which cost a refusal more than its ZCOUNT. Number <-> text
-- conversions in Lua (strtod, printf) cost Redis as much as a command, so the engine formats
-- every number the script only passes on, and a grant converts none but permits and limits,
-- by arithmetic (ARGV[i] + 0: tonumber() is a C call that parses its string twice).
-- A request's permits are bounded by the engine (kMaxSlidingWindowPermits), so one ZADD per
-- 1000 permits stays bounded too.
--
-- Counts include grants newer than now, and trimming keeps grants for a grace beyond the
-- longest window (trim cutoff = now - longest window - grace): a worker whose clock lags by
-- less than the grace counts every grant that shares a window with its own, so no window ever
-- holds more than its limit, without a clock key.
-- time: redis (limiter.h): ARGV[2] is 'redis' and the cutoffs are relative to now 0.
local knownTime = ARGV[2] ~= 'redis'  -- at_ms is the engine's own now
if not knownTime then
    local t = redis.call('time')
    local now = t[1] * 1000 + math.floor(t[2] / 1000)
    ARGV[2] = string.format('%d', now)
    ARGV[3] = string.format('%016d', now) .. ARGV[3]
    ARGV[5] = string.format('%d', now + ARGV[5])
    for i = 7, #ARGV, 2 do
        ARGV[i] = '(' .. string.format('%d', now + string.sub(ARGV[i], 2))
    end
end
local permits = ARGV[1] + 0
local rules = (#ARGV - 5) / 2

local remaining = nil
local largest = 0
local retry = 0
local violated = false
local tooLarge = false
local live = false
-- The deciding rule (1-based here) and its count: the tightest, the worst violated, the first
-- too small for the permits.
local tight, worst, worstCount, big, bigCount = 1, 0, 0, 0, 0
for r = 1, rules do
    local limit = ARGV[4 + 2 * r] + 0
    local from = ARGV[5 + 2 * r]
    local count = redis.call('zcount', KEYS[1], from, '+inf')
    if limit > largest then
        largest = limit
    end
    if count > 0 then
        live = true
    end
    if remaining == nil or limit - count < remaining then
        remaining = limit - count
        tight = r
    end
    if permits > limit then
        if not tooLarge then
            big, bigCount = r, count
        end
        tooLarge = true
    elseif count + permits > limit then
        violated = true
        -- The k-th oldest permit in the window, k = count + permits - limit, must leave it
        -- before this request fits. The window's members are the log's last count (its scores
        -- reach +inf), so that is the (limit - permits + 1)-th newest whatever the count: one
        -- ZRANGE by rank, and its time is the member's first 16 characters.
        local rank = permits == 1 and '-' .. ARGV[4 + 2 * r] or
                         string.format('%d', permits - limit - 1)
        local member = redis.call('zrange', KEYS[1], rank, rank)[1]
        local id = string.byte(member, 17)
        local at
        if id and (id >= 97 and id <= 102 or id >= 48 and id <= 57) then
            at = string.sub(member, 1, 16)
        else
            -- A member an earlier ratelab wrote ("<16 hex digits>[:<i>]", no time): its score.
            at = redis.call('zscore', KEYS[1], member)
        end
        local wait = at - string.sub(from, 2)
        if wait > retry or worst == 0 then
            retry = wait
            worst, worstCount = r, count
        end
    end
end

local allowed = 0
if tooLarge then
    retry = -1
elseif not violated then
    -- Trimming costs a call and counts never depend on it: it happens for one grant in 16 (the
    -- request id, after the time, is random) and whenever no rule's window holds a grant.
    if not live or string.byte(ARGV[3], 17) == 48 then
        redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[5])
    end
    -- The first grant into a log with no live grant (a new log, or one idle for a window)
    -- writes a member longer than 64 bytes, Redis's default zset-max-listpack-value: the zset
    -- becomes a skiplist and stays one (Redis never converts a shrinking zset back). A listpack
    -- is scanned end to end by every ZCOUNT and ZADD, so a log of a few dozen grants would cost
    -- Redis more per decision than one of a million.
    local skiplist = ' (a new log: a member of over 64 bytes keeps this zset a skiplist)'
    if permits == 1 then
        -- Two grants of one millisecond with the same 12 random digits (one pair in 2^48)
        -- would be one member: the second takes another.
        if live then
            if redis.call('zadd', KEYS[1], ARGV[2], ARGV[3]) == 0 then
                redis.call('zadd', KEYS[1], ARGV[2], ARGV[3] .. ':0')
            end
        else
            redis.call('zadd', KEYS[1], ARGV[2], ARGV[3] .. skiplist)
        end
    else
        local members = {}
        for i = 1, permits do
            members[#members + 1] = ARGV[2]
            members[#members + 1] = ARGV[3] .. ':' .. i
            if i == 1 and not live then
                members[2] = members[2] .. skiplist
            end
            if #members >= 2000 or i == permits then
                redis.call('zadd', KEYS[1], unpack(members))
                members = {}
            end
        end
    end
    -- The log goes ttl_ms (the longest window plus the grace) after its last grant. Setting a
    -- TTL costs more than reading one: it is set to twice that, again when less than that is
    -- left.
    if redis.call('pttl', KEYS[1]) < ARGV[4] + 0 then
        redis.call('pexpire', KEYS[1], 2 * ARGV[4])
    end
    allowed, remaining = 1, remaining - permits
end

if rules == 1 then
    if knownTime and remaining >= 0 then
        local packed
        if allowed == 1 then
            packed = 2 * remaining
        else
            packed = 2 * ((retry + 1) * (largest + 2) + remaining)
        end
        if packed < 9007199254740992 then
            return allowed == 1 and packed or -packed - 1
        end
    end
    return string.format('%d %d %d ', allowed, retry, remaining) .. ARGV[2] .. ' 0'
end
local decider, count = tight, 0
if tooLarge then
    decider, count = big, bigCount
elseif violated then
    decider, count = worst, worstCount
end
local radix = largest + 2
if knownTime and remaining >= 0 and count < radix then
    local packed
    if allowed == 1 then
        packed = 2 * (remaining * rules + decider - 1)
    else
        packed = 2 * ((((retry + 1) * radix + remaining) * radix + count) * rules + decider - 1)
    end
    if packed < 9007199254740992 then
        return allowed == 1 and packed or -packed - 1
    end
end
return string.format('%d %d %d ', allowed, retry, remaining) .. ARGV[2] ..
           string.format(' 0 0 %d %d', decider - 1, count)
