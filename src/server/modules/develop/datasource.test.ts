// The connection URLs a data source is typed with (ours and the platform's JDBC forms, PostgreSQL,
// MySQL and MariaDB) and the field types a MySQL column suggests. The real servers are in
// tests/server/develop.test.ts (PostgreSQL) and tests/server/develop-mysql.test.ts (MariaDB).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { engineOf, parseDatasourceUrl } from './datasource.ts';
import { fieldTypeOf } from './introspect.ts';

describe('parseDatasourceUrl', () => {
  it('reads the engine, driver and default port from the scheme', () => {
    expect(parseDatasourceUrl('mysql://report:p%40ss@db.corp/cost')).toEqual({
      engine: 'mysql',
      driverClass: 'com.mysql.cj.jdbc.Driver',
      host: 'db.corp',
      port: 3306,
      database: 'cost',
      user: 'report',
      password: 'p@ss',
    });
    expect(parseDatasourceUrl('mariadb://u@[::1]:3307/x')).toMatchObject({
      engine: 'mysql',
      driverClass: 'org.mariadb.jdbc.Driver',
      host: '::1',
      port: 3307,
    });
    expect(parseDatasourceUrl('postgresql://u@h/db')).toMatchObject({
      engine: 'postgresql',
      driverClass: 'org.postgresql.Driver',
      port: 5432,
    });
  });

  it("reads the platform's JDBC URLs, their user and password as parameters, and ignores the driver's other settings", () => {
    expect(parseDatasourceUrl('jdbc:mysql://10.0.0.8:3306/blade?useSSL=false&serverTimezone=GMT%2B8&user=blade&password=secret')).toEqual({
      engine: 'mysql',
      driverClass: 'com.mysql.cj.jdbc.Driver',
      host: '10.0.0.8',
      port: 3306,
      database: 'blade',
      user: 'blade',
      password: 'secret',
    });
    expect(parseDatasourceUrl('jdbc:mariadb://10.0.0.8/blade')).toMatchObject({
      engine: 'mysql',
      driverClass: 'org.mariadb.jdbc.Driver',
      user: '',
    });
  });

  it('refuses other engines, query strings outside JDBC, and URLs without a database', () => {
    for (const url of [
      'jdbc:oracle:thin:@10.0.0.8:1521:orcl',
      'sqlserver://h/db',
      'mysql://u@h/db?socketPath=/tmp/x',
      'mysql://u@h/',
      'mysql://h/db',
      'jdbc:mysql://h1:3306,h2:3306/db',
    ])
      expect(() => parseDatasourceUrl(url), url).toThrow(AppError);
  });

  it('takes a row without a driver for PostgreSQL (rows saved before MySQL came)', () => {
    expect(engineOf(null)).toBe('postgresql');
    expect(engineOf('org.mariadb.jdbc.Driver')).toBe('mysql');
  });
});

describe('fieldTypeOf a MySQL column', () => {
  const column = (name: string, columnType: string, maxLength: number | null = null, scale: number | null = null) => ({
    name,
    dataType: columnType.replace(/\(.*$/, '').replace(/ unsigned$/, ''),
    columnType,
    maxLength,
    scale,
  });
  it.each([
    [column('is_paid', 'tinyint(1)'), { fieldType: 'boolean' }],
    [column('flag', 'bit(1)'), { fieldType: 'boolean' }],
    [column('level', 'tinyint(4)'), { fieldType: 'integer' }],
    [column('qty', 'int(11) unsigned'), { fieldType: 'integer' }],
    [column('supplier_id', 'bigint(20)'), { fieldType: 'id' }],
    [column('views', 'bigint(20)'), { fieldType: 'integer' }],
    [column('amount', 'decimal(18,2)', null, 2), { fieldType: 'money' }],
    [column('rate', 'decimal(10,4)', null, 4), { fieldType: 'number' }],
    [column('weight', 'double', null, null), { fieldType: 'number' }],
    [column('day', 'date'), { fieldType: 'date' }],
    [column('paid_at', 'datetime'), { fieldType: 'datetime' }],
    [column('seen_at', 'timestamp'), { fieldType: 'datetime' }],
    [column('title', 'varchar(100)', 100), { fieldType: 'string', maxLength: 100 }],
    [column('long_title', 'varchar(2000)', 2000), { fieldType: 'text', maxLength: 2000 }],
    [column('memo', 'text', 65535), { fieldType: 'text', maxLength: 4000 }],
    [column('tag', 'tinytext', 255), { fieldType: 'text', maxLength: 255 }],
    [column('state', "enum('a','b')", 1), { fieldType: 'string', maxLength: 1 }],
  ])('%o → %o', (c, expected) => {
    expect(fieldTypeOf(c, 'mysql')).toEqual(expected);
  });
});
