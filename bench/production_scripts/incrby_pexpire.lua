-- The plain fixed-window counter: INCRBY the window's counter, PEXPIRE it when the window's
-- first request created it, refuse above the limit (the refused request stays counted).
-- KEYS[1] the window's counter (<name>:<window start>)
-- ARGV: permits, ttl_ms, limit
-- Returns 1 granted, 0 refused.
local count = redis.call('incrby', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then
    redis.call('pexpire', KEYS[1], ARGV[2])
end
if count > tonumber(ARGV[3]) then
    return 0
end
return 1
